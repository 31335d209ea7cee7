import { get } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { REFERENCE_ASSETS } from '../src/docs/reference-page.ts';
import { json, startApp } from './helpers/http.ts';
import type { Json } from './helpers/openapi.ts';

const server = await startApp();

/** Status of a conditional GET through node:http (fetch forbids 304s with `Cache-Control: no-cache`). */
function conditionalStatus(path: string, etag: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(`${server.url}${path}`, { headers: { 'If-None-Match': etag, 'Accept-Encoding': 'identity' } }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    }).on('error', reject);
  });
}

test('GET / leads a browser to the reference', async () => {
  const response = await fetch(`${server.url}/`, { redirect: 'manual', headers: { Accept: 'text/html' } });
  assert.is(response.status, 302);
  assert.is(response.headers.get('location'), '/api/docs');
});

test('GET and HEAD / answer the one redirect the document describes, whatever the Accept header', async () => {
  const home = (await json<Json>(await server.get('/api/openapi.json'))).paths['/'].get.responses['302'];
  const [type, { schema }] = Object.entries(home.content as Json)[0]!;
  for (const accept of ['text/html', 'application/json', 'text/plain', '*/*', '']) {
    for (const method of ['GET', 'HEAD']) {
      const response = await fetch(`${server.url}/`, {
        method,
        redirect: 'manual',
        headers: accept ? { Accept: accept } : {},
      });
      assert.is(response.status, 302, `${method} ${accept}`);
      assert.is(response.headers.get('location'), home.headers.Location.schema.enum[0]);
      assert.is(response.headers.get('content-type'), `${type}; charset=utf-8`, `${method} ${accept}`);
      assert.is(await response.text(), method === 'HEAD' ? '' : schema.enum[0], `${method} ${accept}`);
    }
  }
});

test('the page loads only files of this service, and its CSP forbids any other origin', async () => {
  const response = await server.get('/api/docs');
  assert.is(response.status, 200);
  assert.is(response.headers.get('content-type'), 'text/html; charset=utf-8');
  const csp = String(response.headers.get('content-security-policy'));
  assert.match(csp, "default-src 'none'");
  assert.match(csp, "script-src 'self';");
  assert.match(csp, "connect-src 'self';");
  const html = await response.text();
  const links = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
  assert.ok(links.length >= 5, links.join(' '));
  for (const link of links) assert.match(link, /^\/api\/(docs\/[\w.-]+|openapi\.json)$/, link);
});

test('every asset is served with its type and an ETag, and revalidates to 304', async () => {
  for (const [name, { type }] of Object.entries(REFERENCE_ASSETS)) {
    const response = await server.get(`/api/docs/${name}`, { 'Accept-Encoding': 'identity' });
    assert.is(response.status, 200, name);
    assert.is(response.headers.get('content-type'), type, name);
    assert.ok((await response.arrayBuffer()).byteLength > 0, name);
    assert.is(await conditionalStatus(`/api/docs/${name}`, response.headers.get('etag')!), 304, name);
  }
});

test('/favicon.ico, where browsers look by default, is the icon both pages link, cached like their files', async () => {
  const linked = await server.get('/api/docs/favicon.svg');
  const icon = await server.get('/favicon.ico');
  assert.is(icon.status, 200);
  assert.is(icon.headers.get('content-type'), 'image/svg+xml');
  assert.is(icon.headers.get('cache-control'), `public, max-age=${server.config.CACHE_MAX_AGE}`);
  assert.is(icon.headers.get('etag'), linked.headers.get('etag'));
  assert.is(await icon.text(), await linked.text());
  assert.is(await conditionalStatus('/favicon.ico', icon.headers.get('etag')!), 304);
});

test("the page's script reads this service's document once and hands it to Swagger UI, without the online validator", async () => {
  const script = await (await server.get('/api/docs/reference.js')).text();
  assert.match(script, "const DOCUMENT = '/api/openapi.json'");
  assert.match(script, "const SWAGGER_UI = '/api/docs/swagger-ui-bundle.js'");
  assert.match(script, /SwaggerUIBundle\(\{\s+spec,/);
  assert.match(script, 'validatorUrl: null');
  // Fetched beside the document, run only after the operation index has been drawn.
  const html = await (await server.get('/api/docs')).text();
  assert.match(html, '<link rel="preload" as="script" href="/api/docs/swagger-ui-bundle.js">');
  assert.not.match(html, '<script src="/api/docs/swagger-ui-bundle.js">');
});

test('a file the page does not have is a 404 naming it and listing those it has', async () => {
  const response = await server.get('/api/docs/swagger-initializer.js');
  assert.is(response.status, 404);
  const body = await json<{ message: string }>(response);
  assert.match(body.message, "no file 'swagger-initializer.js'");
  assert.match(body.message, 'swagger-ui-bundle.js');
});

test.after(() => server.close());
test.run();
