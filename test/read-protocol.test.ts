import { request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Koa from 'koa';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLogger } from '../src/config/logger.ts';
import { errorHandler } from '../src/http/errors.ts';
import { tokenWithRole } from './helpers/admin.ts';
import { dataFile, json, startApp } from './helpers/http.ts';

type Row = Record<string, unknown>;

const server = await startApp({ CACHE_MAX_AGE: '120' });
const maintainer = await tokenWithRole(server, 'MAINTAINER', 'editor');
const [actor] = await dataFile('actors.json');
const [episode] = await dataFile('episodes.json');

/** A raw request: undecoded body bytes and every header, as a browser or curl would see them. */
function raw(path: string, options: { method?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = request(
      server.url + path,
      { method: options.method ?? 'GET', headers: options.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Asserts the one error shape, its exact Content-Type and its status; returns the body. */
function assertError(
  answer: { status: number; headers: IncomingHttpHeaders; body: Buffer },
  status: number,
  method = 'GET',
): Row {
  assert.is(answer.status, status);
  assert.is(answer.headers['content-type'], 'application/json');
  assert.is(answer.headers['content-length'], String(answer.body.length));
  const body = JSON.parse(answer.body.toString()) as Row;
  assert.is(body.code, status);
  assert.type(body.status, 'string');
  assert.is(body.method, method);
  assert.type(body.message, 'string');
  assert.match(String(body.url), /^\//);
  assert.ok(!Number.isNaN(Date.parse(String(body.timestamps))));
  for (const key of Object.keys(body))
    assert.ok(['code', 'status', 'method', 'message', 'url', 'timestamps', 'params'].includes(key), key);
  return body;
}

test('unknown routes are 404 in the error shape, with params when there is a query', async () => {
  const body = assertError(await raw('/api/v1/dragons?size=3&x=1'), 404);
  assert.is(body.status, 'Not Found');
  assert.is(body.message, 'No route for GET /api/v1/dragons');
  assert.is(body.url, '/api/v1/dragons');
  assert.equal(body.params, { size: '3', x: '1' });
  const plain = assertError(await raw('/nothing/here'), 404);
  assert.not.ok('params' in plain);
});

test('a wrong method is 405 with Allow, in the error shape', async () => {
  const answer = await raw('/api/v1/actors', { method: 'DELETE' });
  const body = assertError(answer, 405, 'DELETE');
  assert.match(String(answer.headers.allow), /GET/);
  assert.match(String(body.message), /DELETE is not allowed on \/api\/v1\/actors/);
});

test('400s and 404s from the routes carry the shape, the exact type and the params', async () => {
  const body = assertError(await raw('/api/v1/actors?page=zero'), 400);
  assert.equal(body.params, { page: 'zero' });
  assertError(await raw('/api/v1/actors/00000000-0000-4000-8000-000000000000'), 404);
  assertError(await raw('/api/v1/actors?size=1&size=2'), 400);
});

test('an unexpected failure is a 500 that shows no stack, path or detail', async () => {
  const app = new Koa();
  const lines: string[] = [];
  app.use(
    errorHandler({ ...createLogger({ level: 'silent', format: 'text' }), warn: (line) => void lines.push(line) }),
  );
  app.use(() => {
    throw new Error("ENOENT: no such file or directory, open '/srv/secret/accounts.json'");
  });
  const listener = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => listener.once('listening', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(listener.address() as AddressInfo).port}/api/v1/actors`);
    assert.is(response.status, 500);
    assert.is(response.headers.get('content-type'), 'application/json');
    const text = await response.text();
    assert.not.match(text, /ENOENT|secret|at |\.ts/);
    assert.is(JSON.parse(text).message, 'Internal server error');
    assert.match(lines.join('\n'), /ENOENT/, 'the detail goes to the log');
  } finally {
    listener.close();
  }
});

test('CORS: preflight answers 204 with the allowed headers; answers expose the headers clients read', async () => {
  const preflight = await raw('/api/v1/actors', {
    method: 'OPTIONS',
    headers: {
      Origin: 'https://app.example.com',
      'Access-Control-Request-Method': 'GET',
      'Access-Control-Request-Headers': 'authorization',
    },
  });
  assert.is(preflight.status, 204);
  assert.is(preflight.headers['access-control-allow-origin'], '*');
  assert.match(String(preflight.headers['access-control-allow-headers']), /Authorization/);
  assert.match(String(preflight.headers['access-control-allow-headers']), /Content-Type/);
  assert.is(preflight.headers['access-control-allow-credentials'], undefined);
  const answer = await raw('/api/v1/actors', { headers: { Origin: 'https://app.example.com' } });
  const exposed = String(answer.headers['access-control-expose-headers']).split(',');
  for (const name of [
    'Link',
    'ETag',
    'Content-Language',
    'Retry-After',
    'X-Pagination-Page-Index',
    'X-Pagination-Page-Size',
    'X-Pagination-Page-Total',
    'X-Pagination-Item-Total',
    'X-Rate-Limit-Remaining',
  ]) {
    assert.ok(exposed.includes(name), name);
  }
  assert.is(answer.headers['access-control-allow-origin'], '*');
});

test('ETag and 304: same bytes same tag, If-None-Match revalidates, cache headers stay', async () => {
  const first = await raw(`/api/v1/actors/${actor!.uuid}`);
  const etag = String(first.headers.etag);
  assert.match(etag, /^"[^"]+"$/, 'strong ETag');
  assert.is(first.headers['cache-control'], 'public, max-age=120');
  assert.is((await raw(`/api/v1/actors/${actor!.uuid}`)).headers.etag, etag);
  const revalidated = await raw(`/api/v1/actors/${actor!.uuid}`, { headers: { 'If-None-Match': etag } });
  assert.is(revalidated.status, 304);
  assert.is(revalidated.body.length, 0);
  assert.is(revalidated.headers.etag, etag);
  assert.is(revalidated.headers['cache-control'], 'public, max-age=120');
  const stale = await raw(`/api/v1/actors/${actor!.uuid}`, { headers: { 'If-None-Match': '"something-else"' } });
  assert.is(stale.status, 200);
  assert.ok(stale.body.length > 0);
});

test('ETags differ by language and by encoding; random endpoints have none', async () => {
  const en = await raw(`/api/v1/episodes/${episode!.uuid}?language=en-US`);
  const pt = await raw(`/api/v1/episodes/${episode!.uuid}?language=pt-BR`);
  assert.is.not(en.headers.etag, pt.headers.etag);
  const plain = await raw('/api/v1/episodes?size=20');
  const gzip = await raw('/api/v1/episodes?size=20', { headers: { 'Accept-Encoding': 'gzip' } });
  assert.is.not(plain.headers.etag, gzip.headers.etag);
  const random = await raw('/api/v1/episodes/random');
  assert.is(random.headers.etag, undefined);
  assert.is(random.headers['cache-control'], 'no-store');
});

test('the ETag of a list changes when the served data changes', async () => {
  const before = (await raw('/api/v1/actors')).headers.etag;
  const [first] = await dataFile('actors.json');
  const path = `/api/v1/actors/${first!.uuid}`;
  const edit = (nationality: unknown) =>
    fetch(server.url + path, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${maintainer}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ nationality }),
    });
  assert.is((await edit('Edited')).status, 200);
  try {
    assert.is.not((await raw('/api/v1/actors')).headers.etag, before);
  } finally {
    assert.is((await edit(first!.nationality)).status, 200);
  }
});

test('compression: gzip and brotli over 1 KB with Vary and Content-Length; small bodies plain', async () => {
  const plain = await raw('/api/v1/episodes?size=20');
  assert.is(plain.headers['content-encoding'], undefined);
  assert.is(plain.headers['content-length'], String(plain.body.length));
  for (const [encoding, decode] of [
    ['gzip', gunzipSync],
    ['br', brotliDecompressSync],
  ] as const) {
    const answer = await raw('/api/v1/episodes?size=20', { headers: { 'Accept-Encoding': encoding } });
    assert.is(answer.headers['content-encoding'], encoding);
    assert.match(String(answer.headers.vary), /Accept-Encoding/);
    assert.is(answer.headers['content-length'], String(answer.body.length));
    assert.ok(answer.body.length < plain.body.length);
    assert.equal(decode(answer.body), plain.body);
  }
  const small = await raw('/api/ping', { headers: { 'Accept-Encoding': 'gzip' } });
  assert.is(small.headers['content-encoding'], undefined);
  assert.is(small.body.toString(), 'Pong');
});

test('Content-Length and exact application/json on every JSON answer; no GET is empty', async () => {
  const paths = [
    '/api',
    '/api/v1/endpoints',
    '/api/v1/overview',
    '/api/v1/actors',
    `/api/v1/actors/${actor!.uuid}/socials`,
    `/api/v1/episodes/${episode!.uuid}/translations`,
  ];
  for (const path of paths) {
    for (const encoding of ['identity', 'gzip, br']) {
      const answer = await raw(path, { headers: { 'Accept-Encoding': encoding } });
      assert.is(answer.status, 200, path);
      assert.is(answer.headers['content-type'], 'application/json', path);
      assert.is(answer.headers['content-length'], String(answer.body.length), path);
      assert.ok(answer.body.length > 0);
    }
  }
});

test('a huge query is answered in the error shape with a Content-Length', async () => {
  const answer = await raw(`/api/v1/actors?first_name=${'x'.repeat(6000)}&nope=${'y'.repeat(3000)}`, {
    headers: { 'Accept-Encoding': 'gzip' },
  });
  const body = assertError(answer, 414);
  assert.match(String(body.message), /^Request target is 9\d{3} bytes long; at most 2048 are served$/);
});

test('a request line over the header limit is a 431 in the error shape, not an empty answer', async () => {
  const answer = await raw(`/api/v1/actors?first_name=${'x'.repeat(20_000)}`);
  const body = assertError(answer, 431);
  assert.is(body.url, '/api/v1/actors');
  assert.match(String(body.message), /exceed 16 KB/);
});

test('fetch-based clients read the same: JSON lists parse and carry paging headers', async () => {
  const response = await server.get('/api/v1/characters?size=3');
  assert.is((await json<Row[]>(response)).length, 3);
  assert.is(response.headers.get('x-pagination-page-size'), '3');
});

test.after(() => server.close());
test.run();
