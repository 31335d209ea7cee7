import { gzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadReferencePage } from '../src/docs/reference-page.ts';
import { newUser } from './helpers/accounts-app.ts';
import { dataFile, json, startApp } from './helpers/http.ts';
import { exchange, type WireAnswer } from './helpers/wire.ts';

type Row = Record<string, unknown>;
const server = await startApp({
  REQUEST_TIMEOUT_SECONDS: '2',
  HEADERS_TIMEOUT_SECONDS: '1',
  MAX_CONNECTIONS_PER_ADDRESS: '1000',
});
const [actor] = await dataFile('actors.json');

/** The error shape, with the status and a message matching `message`. */
function assertShape(answer: WireAnswer, status: number, message: RegExp): Row {
  assert.is(answer.status, status, answer.text.slice(0, 300));
  assert.is(answer.headers['content-type'], 'application/json');
  assert.is(answer.headers['x-content-type-options'], 'nosniff');
  assert.is(answer.headers['content-length'], String(Buffer.byteLength(answer.body)));
  const body = JSON.parse(answer.body) as Row;
  assert.is(body.code, status);
  assert.match(String(body.message), message);
  return body;
}

const request = (head: string) => exchange(server.port, `${head}\r\n\r\n`);

test('methods the API does not implement are 405 with Allow on an existing path; CONNECT is answered', async () => {
  for (const method of ['TRACE', 'PROPFIND', 'SEARCH', 'QUERY', 'MKCOL', 'LOCK', 'UNLOCK', 'PATCH', 'PUT']) {
    const answer = await request(`${method} /api/v1/actors HTTP/1.1\r\nHost: x\r\nConnection: close`);
    // POST creates an actor (catalog writes); the rest are not served on a collection.
    assertShape(
      answer,
      405,
      new RegExp(`^Method ${method} is not allowed on /api/v1/actors; allowed: HEAD, GET, POST$`),
    );
    assert.is(answer.headers.allow, 'HEAD, GET, POST');
  }
  assertShape(
    await request('PROPFIND /api/nowhere HTTP/1.1\r\nHost: x\r\nConnection: close'),
    404,
    /^No route for PROPFIND \/api\/nowhere$/,
  );
  const connect = await request('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443');
  assertShape(connect, 405, /^Method CONNECT is not allowed/);
});

test('Expect other than 100-continue is a 417, a missing Host a 400, a slow request a 408: all in the error shape', async () => {
  assertShape(
    await request('GET /api/v1/actors HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nConnection: close'),
    417,
    /^Expect '200-ok' is not supported/,
  );
  assertShape(
    await request('GET /api/v1/actors HTTP/1.1\r\nConnection: close'),
    400,
    /^An HTTP\/1\.1 request needs a Host header$/,
  );
  assert.is((await request('GET /api/v1/actors?size=1 HTTP/1.0')).status, 200, 'HTTP/1.0 needs no Host');
  // One byte every 700 ms: the whole request is not in within REQUEST_TIMEOUT_SECONDS (2 s).
  const body = JSON.stringify(newUser('slow'));
  const head = `POST /api/v1/auth/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
  const trickle = await exchange(server.port, [head, ...body.split('')], { gapMs: 700, waitMs: 6000 });
  assertShape(trickle, 408, /^The request was not received in time/);
  const headers = await exchange(server.port, ['GET /api/v1/act', 'ors HTTP/1.1\r\n', 'Host: x\r\n'], {
    gapMs: 800,
    waitMs: 5000,
  });
  assertShape(headers, 408, /^The request was not received in time/);
});

test('connections beyond the cap per address are turned away with a 503 in the error shape', async () => {
  const capped = await startApp({ MAX_CONNECTIONS_PER_ADDRESS: '2' });
  try {
    const held = [
      exchange(capped.port, 'GET /api/v1/actors HTTP/1.1\r\nHost: x\r\n', { waitMs: 800 }),
      exchange(capped.port, 'GET /api/v1/actors HTTP/1.1\r\nHost: x\r\n', { waitMs: 800 }),
    ];
    await new Promise((resolve) => setTimeout(resolve, 100));
    const third = await exchange(capped.port, 'GET /api/v1/actors HTTP/1.1\r\nHost: x\r\n\r\n', { waitMs: 500 });
    assertShape(third, 503, /^Too many open connections from 127\.0\.0\.1 \(at most 2, MAX_CONNECTIONS_PER_ADDRESS\)/);
    await Promise.all(held);
  } finally {
    await capped.close();
  }
});

test('Content-Encoding of a request body: unsupported codings are 415, bytes that do not decode 400, never a 500', async () => {
  const body = JSON.stringify(newUser('coded'));
  const register = (coding: string, bytes: Buffer | string, type = 'application/json') =>
    fetch(`${server.url}/api/v1/auth/register`, {
      method: 'POST',
      headers: { 'Content-Type': type, 'Content-Encoding': coding },
      body: bytes,
    });
  for (const coding of ['zstd', 'compress', 'x-unknown', 'gzip, br']) {
    const answer = await register(coding, body);
    assert.is(answer.status, 415, coding);
    assert.match(
      String((await json<Row>(answer)).message),
      new RegExp(`^Content-Encoding '${coding}' is not supported`),
    );
  }
  for (const coding of ['gzip', 'deflate', 'br']) {
    const answer = await register(coding, body);
    assert.is(answer.status, 400, coding);
    assert.match(String((await json<Row>(answer)).message), new RegExp(`^Request body is not valid ${coding} data`));
  }
  assert.is((await register('GZIP', gzipSync(body))).status, 201, 'a real gzip body, the coding in any case');
});

test('media types are case-insensitive: Application/JSON is JSON', async () => {
  const answer = await fetch(`${server.url}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'Application/JSON; Charset=UTF-8' },
    body: JSON.stringify(newUser('cased')),
  });
  assert.is(answer.status, 201);
});

test('every answer keeps its headers far below 16 KB: a long query is a 414, the longest served fits', async () => {
  const huge = await fetch(`${server.url}/api/v1/actors?first_name=${'x'.repeat(14_000)}`);
  assert.is(huge.status, 414);
  const filter = `/api/v1/actors?first_name=${'y'.repeat(2048 - 40)}`;
  const longest = await exchange(
    server.port,
    `GET ${filter.slice(0, 2048)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
  );
  const headBytes = longest.text.indexOf('\r\n\r\n');
  assert.ok(headBytes > 0 && headBytes < 12 * 1024, `${headBytes} bytes of headers`);
  const link = await fetch(`${server.url}/api/v1/actors?size=1&nationality=${'z'.repeat(1900)}`);
  assert.is(link.status, 200, 'Node’s own client reads the answer with its Link header');
});

test('nosniff on every answer, from Koa, the fast path and Node’s own refusals; no-referrer on the reference page', async () => {
  const path = `/api/v1/actors/${actor!.uuid}`;
  for (const target of [
    path,
    path,
    '/api/v1/actors?size=2',
    '/api/nothing',
    '/api/ping',
    '/api/docs',
    '/api/docs/swagger-ui.css',
  ]) {
    assert.is((await server.get(target)).headers.get('x-content-type-options'), 'nosniff', target);
  }
  const etag = (await server.get(path)).headers.get('etag')!;
  assert.is(
    (await server.get(path, { 'If-None-Match': etag })).headers.get('x-content-type-options'),
    'nosniff',
    '304',
  );
  assert.is(
    (await request(`GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x`)).headers['x-content-type-options'],
    'nosniff',
    '431',
  );
  assert.is((await server.get('/api/docs')).headers.get('referrer-policy'), 'no-referrer');
});

test('reference assets: a strong ETag per encoding, each compressed once', async () => {
  const tags = new Set<string>();
  const asset = (headers: string) =>
    request(`GET /api/docs/swagger-ui-bundle.js HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${headers}`);
  for (const encoding of ['identity', 'gzip', 'br']) {
    const answer = await asset(`Accept-Encoding: ${encoding}`);
    assert.is(answer.status, 200);
    assert.is(answer.headers['content-encoding'] ?? 'identity', encoding);
    tags.add(answer.headers.etag!);
    const again = await asset(`Accept-Encoding: ${encoding}\r\nIf-None-Match: ${answer.headers.etag}`);
    assert.is(again.status, 304, encoding);
  }
  assert.is(tags.size, 3);
  const { assets } = loadReferencePage();
  const bundle = assets.get('swagger-ui-bundle.js')!;
  assert.ok(bundle.bytes('br') === bundle.bytes('br'), 'the compressed bytes are kept, not made again');
});

test('/api reports PUBLIC_URL when set; without it, it echoes the Host but no shared cache may keep it', async () => {
  const api = (port: number, host: string) =>
    exchange(port, `GET /api HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
  for (let i = 0; i < 2; i++) {
    const bare = await api(server.port, 'attacker.example');
    assert.is((JSON.parse(bare.body) as Row).url, 'http://attacker.example');
    assert.match(bare.headers['cache-control'] ?? '', /^private/);
    assert.match(bare.headers.vary ?? '', /Host/);
  }
  const other = await api(server.port, 'school.example');
  assert.is(
    (JSON.parse(other.body) as Row).url,
    'http://school.example',
    'the fast path does not replay another host’s answer',
  );
  const configured = await startApp({ PUBLIC_URL: 'https://catalog.example.org/' });
  try {
    const answer = await api(configured.port, 'attacker.example');
    const info = JSON.parse(answer.body) as Row;
    assert.is(info.url, 'https://catalog.example.org');
    assert.is(info.docs, 'https://catalog.example.org/api/docs');
    assert.match(answer.headers['cache-control'] ?? '', /^public/);
  } finally {
    await configured.close();
  }
});

test('no client mistake above was logged as a server error', async () => {
  await server.close();
  assert.equal(
    server.warnings.filter((line) => /^500 /.test(line)),
    [],
    'no stack trace logged for a client mistake',
  );
});

test.after(() => server.close());
test.run();
