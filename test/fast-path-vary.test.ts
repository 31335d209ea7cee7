import { ChangeFeed } from '../src/changes/feed.ts';
import { request } from 'node:http';
import { connect } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../src/app.ts';
import { readConfig } from '../src/config/env.ts';
import { createLogger } from '../src/config/logger.ts';
import { STANDS_IN_FOR } from '../src/http/stand-ins.ts';
import type { RouteTable } from '../src/http/routing.ts';
import type { AccountService } from '../src/accounts/service.ts';
import type { RateLimits } from '../src/limits/rate-limits.ts';
import type { Curator } from '../src/served/curator.ts';
import type { Sandboxes } from '../src/served/sandboxes.ts';
import type { ServedCatalog } from '../src/served/served-catalog.ts';
import { exampleUrls } from './helpers/example-urls.ts';
import { startApp } from './helpers/http.ts';
import { documentedRoutes, loadDocument } from './helpers/openapi.ts';

// The fast path replays an answer to any request with the same URL and the same values of the
// headers the answer varies on. These tests send each URL with other headers first, then as a
// plain client, and hold the plain client's answer to the one Koa gave it before.

const server = await startApp({ TRUST_PROXY: '1' });
const { resolved } = await loadDocument(server);
const fill = await exampleUrls(resolved);

interface Seen {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A GET with exactly these headers (fetch would add its own), read whole. */
function get(path: string, headers: Record<string, string>): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const req = request(server.url + path, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers as Record<string, string>, body }));
    });
    req.on('error', reject).end();
  });
}

/** What must not differ between two answers to one request: status, body (but an error's moment), and the headers a client reads. */
function comparable({ status, headers, body }: Seen): unknown {
  const kept = ['content-type', 'content-language', 'etag', 'location', 'vary', 'cache-control', 'link'];
  return {
    status,
    headers: Object.fromEntries(kept.map((name) => [name, headers[name]])),
    body: body.replace(/"timestamps":"[^"]+"/, '"timestamps":"…"'),
  };
}

/** Other clients' headers, each set sent three times: the fast path keeps an answer from its URL's second request on. */
const OTHERS: Record<string, string>[] = [
  { 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' },
  { 'X-Forwarded-Host': 'evil.example:8443, other.example', 'X-Forwarded-For': '203.0.113.9' },
  { 'Accept-Language': 'pt-BR', Accept: 'text/html', Origin: 'https://evil.example' },
  { Host: 'another-host.example' },
];

test('every GET of the OpenAPI document answers a plain client the same after other clients asked with other headers', async () => {
  const gets = documentedRoutes(resolved)
    .filter((route) => route.startsWith('GET ') && !route.includes('/random'))
    .map((route) => fill(route.slice(4)));
  const errors = [
    '/api/v1/actors?frist_name=Ana',
    '/api/v1/episodes?language=xx-XX',
    '/api/v1/nowhere',
    '/api/v1/actors/not-a-uuid',
  ];
  const paths = [
    ...gets,
    ...errors,
    '/api/v1/episodes?size=3&sort=duration,desc&language=pt-BR',
    '/api/v1/locations?q=sao%20bras',
  ];
  assert.ok(paths.length > 40, `${paths.length} URLs`);
  for (const path of paths) {
    const before = comparable(await get(path, {}));
    for (const headers of OTHERS) for (let i = 0; i < 3; i++) await get(path, headers);
    assert.equal(comparable(await get(path, {})), before, `GET ${path}`);
  }
});

test('a forwarded Host and scheme never reach another client (/api behind TRUST_PROXY)', async () => {
  for (let i = 0; i < 3; i++) {
    const poisoned = JSON.parse(
      (await get('/api', { 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' })).body,
    ) as { url: string };
    assert.is(
      poisoned.url,
      'https://evil.example',
      'the proxy-given origin is answered to the client that came through it',
    );
  }
  const plain = JSON.parse((await get('/api', {})).body) as { url: string; docs: string; api_url: string };
  assert.is(plain.url, server.url);
  assert.is(plain.docs, `${server.url}/api/docs`);
  assert.is(plain.api_url, `${server.url}/api`);
});

test('the Host rules are the same on both paths: an empty Host is a 400 after the URL is known', async () => {
  const path = fill('/api/v1/actors/{uuid}');
  for (let i = 0; i < 3; i++) assert.is((await get(path, {})).status, 200);
  // Node's client leaves an empty Host out: the request is written by hand.
  const socket = connect(server.port, '127.0.0.1');
  socket.end(`GET ${path} HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n`);
  let answer = '';
  for await (const chunk of socket) answer += String(chunk);
  assert.match(answer, /^HTTP\/1\.1 400 /);
  assert.match(answer, /Host header/);
});

test("the app's middleware are exactly those the fast path stands in for, in order", () => {
  const settings = readConfig({ RATE_LIMIT: 'on', LOG_LEVEL: 'info', SIMULATE: 'on' });
  if ('error' in settings) throw new Error(settings.error);
  const log = createLogger({ level: 'silent', format: 'text' });
  // Only wiring happens here: no request reaches these parts.
  const parts = {
    served: {} as ServedCatalog,
    feed: new ChangeFeed(),
    accounts: {} as AccountService,
    limits: {} as RateLimits,
    curator: {} as Curator,
    sandboxes: {} as Sandboxes,
    log,
  };
  const fast = { remember: () => async () => {} } as never;
  // The routes' admission runs inside `routes`, in the stages it names.
  const names = createApp(settings.config, parts, fast).middleware.flatMap((middleware) => [
    middleware.name,
    ...((middleware as Partial<ReturnType<RouteTable['middleware']>>).table?.stages ?? []),
  ]);
  assert.equal(names, Object.keys(STANDS_IN_FOR));
});

test.after(() => server.close());
test.run();
