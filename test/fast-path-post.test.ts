import { request } from 'node:http';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registered } from './helpers/accounts-app.ts';
import { caller } from './helpers/curator-calls.ts';
import { dataFile, startApp, type TestServer } from './helpers/http.ts';
import { headersOf } from './helpers/wire.ts';

// The fast path replays the kept answer of a GraphQL query to the same POST: same URL, Content-Type, body and
// values of the headers in the answer's Vary. It reads a body ahead of Koa only when one of that URL and length has
// a remembered answer; Koa parses the bytes read ahead when none is remembered for them.
const server = await startApp();

interface Raw {
  status: number;
  /** Header names as the wire carried them, with their values. */
  raw: [string, string][];
  body: string;
}

const JSON_TYPE = { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json' };

/** POST `body` to `path` of `on`; `chunked` sends it without a Content-Length. */
function post(
  body: string | Buffer,
  headers: Record<string, string> = {},
  { on = server, path = '/api/graphql', chunked = false }: { on?: TestServer; path?: string; chunked?: boolean } = {},
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const length = chunked ? {} : { 'Content-Length': String(Buffer.byteLength(body)) };
    const req = request(on.url + path, { method: 'POST', headers: { ...JSON_TYPE, ...length, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const raw: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) raw.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
        resolve({ status: res.statusCode!, raw, body: Buffer.concat(chunks).toString() });
      });
    });
    req.on('error', reject);
    if (chunked) req.write(body.slice(0, 5));
    req.end(chunked ? body.slice(5) : body);
  });
}

// Koa writes a kept answer's `Content-Type` so; the fast path writes the names in lower case. Only the test looks.
const byFastPath = (answer: Raw) => answer.raw.some(([name]) => name === 'content-type');

/** The same POST three times: asked once (Koa, not kept), again (Koa, kept), then the fast path's. */
async function thrice(body: string, headers: Record<string, string> = {}, on = server): Promise<Raw[]> {
  return [await post(body, headers, { on }), await post(body, headers, { on }), await post(body, headers, { on })];
}

const query = (text: string) => JSON.stringify({ query: text });

test('a repeated GraphQL query by POST is answered by the fast path with the same status, headers and bytes as Koa', async () => {
  const cases: [string, Record<string, string>][] = [
    [query('{ overview { title } }'), {}],
    [query('{ episodes(size: 2) { items { title } } }'), { 'Accept-Language': 'pt-BR' }],
    [query('{ episodes(size: 2) { items { title } } }'), { 'Accept-Language': 'es-ES;q=1, en;q=0.2' }],
    [query('{ actors(size: 3) { items { thumbnail } } }'), { Origin: 'https://app.example.com' }],
    [query('{ overview { title } }'), { Accept: 'application/json', 'Accept-Encoding': 'gzip' }],
    [query('{ overview { title } }'), { 'Content-Type': 'application/json; charset=utf-8' }],
    [JSON.stringify({ query: 'query ($n: Int) { actors(size: $n) { items { uuid } } }', variables: { n: 2 } }), {}],
  ];
  for (const [n, [text, headers]] of cases.entries()) {
    // A text of its own per case (a comment): none is kept before its case.
    const body = text.replace(/}"/, `} # case ${n}"`);
    const [once, first, second] = await thrice(body, headers);
    const what = `${body} ${JSON.stringify(headers)}`;
    assert.not.ok(byFastPath(once!) || byFastPath(first!), `${what}: Koa until kept`);
    assert.ok(byFastPath(second!), `${what}: from then on, the fast path`);
    assert.is(second!.status, 200, what);
    assert.equal(headersOf(second!), headersOf(first!), what);
    assert.is(second!.body, first!.body, what);
  }
});

test('a remembered body is replayed only to the same URL, Content-Type and values of the headers in Vary', async () => {
  const body = query('{ episode_list: episodes(size: 1) { items { title } } }');
  const [, , english] = await thrice(body);
  assert.ok(byFastPath(english!));
  const others: Record<string, string>[] = [
    { 'Accept-Language': 'pt-BR' },
    { Accept: 'application/json' },
    { 'Content-Type': 'application/json;charset=UTF-8' },
    { Origin: 'https://other.example.com' },
    { Host: 'elsewhere.example:1234' },
  ];
  for (const headers of others) {
    const answer = await post(body, headers);
    assert.is(answer.status, 200, JSON.stringify(headers));
    assert.not.ok(byFastPath(answer), `${JSON.stringify(headers)}: never seen, so Koa answers`);
  }
  assert.is.not(
    (await post(body, { 'Accept-Language': 'pt-BR' })).body,
    english!.body,
    'the answer in Portuguese, not the English one remembered',
  );
  const elsewhere = await post(body, {}, { path: '/api/graphql?from=elsewhere' });
  assert.not.ok(byFastPath(elsewhere), 'another URL');
  assert.is(elsewhere.body, english!.body);
});

/** `body` padded with spaces (JSON allows them) to `length` characters. */
const padded = (body: string, length: number) => body + ' '.repeat(length - body.length);

test('another body of a remembered length is parsed by Koa from the bytes read ahead, as it would be otherwise', async () => {
  const known = query('{ overview { title } }');
  await thrice(known);
  const length = known.length + 80;
  await thrice(padded(known, length));
  const sameLength = [
    query('{ overview { languages } }'),
    query('{ overview { nothing } }'),
    '{"query": "{ overview { title } }"',
    '{"query":"{ overview { title } }","variables":{"__proto__":{"x":1}}}',
    '["not", "an", "operation"]',
    JSON.stringify({ query: 'mutation { delete_location(uuid: "00000000-0000-4000-8000-000000000000") }' }),
  ];
  for (const body of sameLength) {
    assert.ok(body.length <= length, body);
    const readAhead = await post(padded(body, length));
    // Sent without a length (chunked): Koa reads it from the request itself.
    const direct = await post(padded(body, length), {}, { chunked: true });
    assert.is(readAhead.status, direct.status, body);
    const stamp = /"timestamps":"[^"]+"/;
    assert.is(readAhead.body.replace(stamp, ''), direct.body.replace(stamp, ''), body);
  }
});

test('a body sent compressed or chunked goes to Koa, which answers it the same', async () => {
  const body = query('{ seasons(size: 1) { items { title } } }');
  const [, , remembered] = await thrice(body);
  assert.ok(byFastPath(remembered!));
  const gzipped = await post(gzipSync(body), { 'Content-Encoding': 'gzip' });
  const chunked = await post(body, {}, { chunked: true });
  for (const answer of [gzipped, chunked]) {
    assert.not.ok(byFastPath(answer));
    assert.is(answer.status, 200);
    assert.is(answer.body, remembered!.body);
  }
});

test('a request that breaks off while its body is read ahead gets no answer, and the server goes on', async () => {
  const body = query('{ games(size: 1) { items { name } } }');
  await thrice(body);
  const socket = connect(server.port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(
    `POST /api/graphql HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/json\r\nAccept: application/graphql-response+json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
  );
  await new Promise((resolve) => setTimeout(resolve, 100));
  socket.destroy();
  const after = await post(body);
  assert.is(after.status, 200);
  assert.ok(byFastPath(after));
});

test('a replayed POST counts once in the budget, with the limit headers; its 429 and 401 are those Koa gives', async () => {
  const limited = await startApp({ RATE_LIMIT: 'on', RATE_LIMIT_ANONYMOUS: '6' });
  try {
    const body = query('{ overview { title } }');
    const answers = [...(await thrice(body, {}, limited)), ...(await thrice(body, {}, limited))];
    assert.equal(answers.map(byFastPath), [false, false, true, true, true, true]);
    assert.equal(
      answers.map((answer) => headersOf(answer)['x-rate-limit-remaining']),
      ['5', '4', '3', '2', '1', '0'],
    );
    const refused = await post(body, {}, { on: limited });
    assert.is(refused.status, 429);
    assert.ok(headersOf(refused)['retry-after']);
    const fields = JSON.parse(refused.body) as Record<string, unknown>;
    assert.is(fields.method, 'POST');
    assert.is(fields.url, '/api/graphql');
    const other = await startApp({ RATE_LIMIT: 'on', RATE_LIMIT_ANONYMOUS: '6' });
    try {
      await thrice(body, {}, other);
      const bad = await post(body, { Authorization: 'Bearer nonsense' }, { on: other });
      assert.is(bad.status, 401);
      assert.is((JSON.parse(bad.body) as Record<string, unknown>).method, 'POST');
      assert.is(headersOf(bad)['x-rate-limit-remaining'], '2', 'counted once, as its address');
    } finally {
      await other.close();
    }
  } finally {
    await limited.close();
  }
});

test("a student's sandboxed answer is never replayed to others, nor the shared one to the student (classroom mode)", async () => {
  const classroom = await startApp({ CLASSROOM: 'on' });
  try {
    const [student, other] = [
      await registered(classroom.url, 'postfast1'),
      await registered(classroom.url, 'postfast2'),
    ];
    const [location] = await dataFile('locations.json');
    const body = query(`{ location(uuid: "${String(location!.uuid)}") { name } }`);
    const as = (token?: string): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {});
    // Asked enough times by everyone for the fast path to know the body.
    for (const token of [undefined, student, other]) await thrice(body, as(token), classroom);
    const shared = await post(body, {}, { on: classroom });
    assert.ok(byFastPath(shared));
    const path = `/api/v1/locations/${String(location!.uuid)}`;
    assert.is((await caller(classroom, student)('PATCH', path, { name: 'Only in my sandbox' })).status, 200);
    for (let n = 0; n < 4; n++) {
      const own = await post(body, as(student), { on: classroom });
      assert.not.ok(byFastPath(own));
      assert.equal(JSON.parse(own.body).data, { location: { name: 'Only in my sandbox' } });
      assert.is(headersOf(own)['cache-control'], 'private, no-cache');
      for (const token of [undefined, other])
        assert.is((await post(body, as(token), { on: classroom })).body, shared.body);
    }
  } finally {
    await classroom.close();
  }
});

test.after(() => server.close());
test.run();
