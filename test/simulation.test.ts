import { request } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FAIL_STATUSES } from '../src/http/simulation.ts';
import { dataFile, json, startApp } from './helpers/http.ts';

// Simulated latency and failures (`SIMULATE=on`): through the compiled server, whose every
// answer is also held against the OpenAPI document it serves when it is closed.

const server = await startApp({ SIMULATE: 'on' });
const [actor] = await dataFile('actors.json');
const one = `/api/v1/actors/${String(actor!.uuid)}`;

interface ErrorBody {
  code: number;
  message: string;
}

/** A GET, with the raw names of the headers: the fast path writes them in lower case, Koa does not. */
function raw(path: string): Promise<{ status: number; byFastPath: boolean; body: string }> {
  return new Promise((resolve, reject) => {
    request(server.url + path, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, byFastPath: res.rawHeaders.includes('content-type'), body }),
      );
    })
      .on('error', reject)
      .end();
  });
}

test('_fail answers each status in the one error shape, saying it is simulated, Retry-After on 429 and 503', async () => {
  for (const status of FAIL_STATUSES) {
    for (const path of [`/api/v1/actors?_fail=${status}`, `${one}?_fail=${status}`]) {
      const response = await server.get(path);
      assert.is(response.status, status, path);
      assert.is(response.headers.get('content-type'), 'application/json', path);
      assert.is(response.headers.get('cache-control'), 'no-store', path);
      const body = await json<ErrorBody>(response);
      assert.is(body.code, status, path);
      assert.match(body.message, /^Simulated /, path);
      assert.is(response.headers.get('retry-after'), status === 429 || status === 503 ? '1' : null, path);
    }
  }
});

test('_fail answers a write too, before anything is carried out', async () => {
  const response = await fetch(`${server.url}/api/v1/actors?_fail=409`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  assert.is(response.status, 409);
  assert.match((await json<ErrorBody>(response)).message, /^Simulated 409/);
});

test('bad values are a 400 naming the parameter and what it takes', async () => {
  const cases: [string, RegExp][] = [
    ['_delay=abc', /'_delay' must be an integer from 0 to 5000/],
    ['_delay=99999', /'_delay' must be an integer from 0 to 5000/],
    ['_delay=5001', /'_delay' must be an integer from 0 to 5000/],
    ['_delay=-1', /'_delay' must be an integer from 0 to 5000/],
    ['_delay=1.5', /'_delay' must be an integer from 0 to 5000/],
    ['_delay=', /'_delay' must be an integer from 0 to 5000/],
    ['_delay=1&_delay=2', /'_delay' was given 2 times.*from 0 to 5000/],
    ['_fail=418', /'_fail' must be one of 400, 401, 403, 404, 409, 429, 500, 503, got '418'/],
    ['_fail=500&_fail=503', /'_fail' was given 2 times.*one of 400, 401/],
  ];
  for (const [query, message] of cases) {
    for (const path of [`/api/v1/actors?${query}`, `${one}?${query}`]) {
      const response = await server.get(path);
      assert.is(response.status, 400, path);
      assert.match((await json<ErrorBody>(response)).message, message, path);
    }
  }
});

test('_delay holds the answer: a delayed read answers after a plain one sent after it, and not before the delay', async () => {
  const order: string[] = [];
  const started = performance.now();
  const delayed = server.get('/api/v1/actors?size=2&_delay=1000').then(async (response) => {
    order.push('delayed');
    return { response, elapsed: performance.now() - started };
  });
  const plain = server.get('/api/v1/actors?size=2').then((response) => {
    order.push('plain');
    return response;
  });
  const [{ response, elapsed }, plainResponse] = await Promise.all([delayed, plain]);
  assert.equal(order, ['plain', 'delayed']);
  assert.ok(elapsed >= 900, `answered after ${elapsed} ms`);
  // The parameters are not filters: the same records as without them.
  assert.equal(await json(response), await json(plainResponse));
});

test('a client has at most 4 delayed requests in flight; the next is a 429, and once they answer it may delay again', async () => {
  const statuses = await Promise.all(
    Array.from({ length: 6 }, () => server.get('/api/v1/seasons?_delay=5000').then((response) => response.status)),
  );
  assert.equal(statuses.sort(), [200, 200, 200, 200, 429, 429]);
  const refused = await Promise.all(Array.from({ length: 5 }, () => server.get('/api/v1/seasons?_delay=3000')));
  const over = refused.find((response) => response.status === 429)!;
  assert.match(
    (await json<ErrorBody>(over)).message,
    /Too many requests with _delay at once: address 127\.0\.0\.1 has 4 waiting/,
  );
  assert.is(over.headers.get('retry-after'), '1');
  assert.is((await server.get('/api/v1/seasons?_delay=10')).status, 200);
});

test('the fast path never replays a simulated answer: each is simulated again, and the URL without it is untouched', async () => {
  for (const query of ['_fail=404', '_fail=400', '_fail=500', '_delay=0', '_delay=20&size=1']) {
    const path = `/api/v1/episodes?${query}`;
    const answers = [await raw(path), await raw(path), await raw(path)];
    assert.equal(
      answers.map((answer) => answer.byFastPath),
      [false, false, false],
      `${path}: answered by Koa every time`,
    );
  }
  const repeated = [await raw('/api/v1/episodes'), await raw('/api/v1/episodes'), await raw('/api/v1/episodes')];
  assert.equal(
    repeated.map((answer) => answer.status),
    [200, 200, 200],
  );
  assert.ok(repeated[2]!.byFastPath, 'a URL without the parameters is still answered by the fast path');
  assert.is((await raw('/api/v1/episodes?_fail=503')).status, 503, 'and the simulated one still simulated');
});

test('the served document describes _delay and _fail on every operation', async () => {
  const document = await json<{ paths: Record<string, Record<string, { parameters?: { $ref?: string }[] }>> }>(
    await server.get('/api/openapi.json'),
  );
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const refs = (operation.parameters ?? []).map((parameter) => parameter.$ref);
      assert.ok(
        refs.includes('#/components/parameters/SimulatedDelay') &&
          refs.includes('#/components/parameters/SimulatedFailure'),
        `${method} ${path}`,
      );
    }
  }
});

test("simulated requests count in the caller's budget, and a spent budget is refused before any simulation", async () => {
  const limited = await startApp({ SIMULATE: 'on', RATE_LIMIT: 'on', RATE_LIMIT_ANONYMOUS: '3' });
  try {
    const remaining: (string | null)[] = [];
    for (const query of ['_fail=500', '_delay=10', '_fail=404'])
      remaining.push((await limited.get(`/api/v1/actors?${query}`)).headers.get('x-rate-limit-remaining'));
    assert.equal(remaining, ['2', '1', '0']);
    const refused = await limited.get('/api/v1/actors?_fail=500');
    assert.is(refused.status, 429);
    assert.not.match((await json<ErrorBody>(refused)).message, /Simulated/);
  } finally {
    await limited.close();
  }
});

test('outside SIMULATE the names are what they were: an unknown filter on a list, ignored by uuid, not in the document', async () => {
  const plain = await startApp();
  try {
    const list = await plain.get('/api/v1/actors?_delay=10');
    assert.is(list.status, 400);
    assert.match((await json<ErrorBody>(list)).message, /^Unknown filter '_delay' for actors/);
    const failed = await plain.get('/api/v1/actors?_fail=500');
    assert.match((await json<ErrorBody>(failed)).message, /^Unknown filter '_fail' for actors/);
    assert.is((await plain.get(`${one}?_fail=500`)).status, 200);
    assert.not.match(await (await plain.get('/api/openapi.json')).text(), /_delay|_fail/);
  } finally {
    await plain.close();
  }
});

test.after(() => server.close());
test.run();
