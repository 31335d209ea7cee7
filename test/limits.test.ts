import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Counter } from '../src/limits/counter.ts';
import { MemoryLoginFailures } from '../src/limits/login-failures.ts';
import { SweptMap } from '../src/limits/swept-map.ts';
import { json, startApp } from './helpers/http.ts';

type Row = Record<string, unknown>;

test('the N+1th anonymous request is a 429 in the error shape with every limit header', async () => {
  const server = await startApp({ RATE_LIMIT: 'on', RATE_LIMIT_ANONYMOUS: '3' });
  try {
    for (let i = 1; i <= 3; i++) {
      const ok = await server.get('/api/v1/actors?size=1');
      assert.is(ok.status, 200);
      assert.is(ok.headers.get('x-rate-limit-remaining'), String(3 - i));
      assert.is(ok.headers.get('x-rate-limit-limit'), '3');
      assert.match(ok.headers.get('x-rate-limit-reset') ?? '', /^\d{10}$/);
      assert.is(ok.headers.get('ratelimit-policy'), '"anonymous";q=3;w=60');
      assert.match(ok.headers.get('ratelimit') ?? '', new RegExp(`^"anonymous";r=${3 - i};t=(60|59)$`));
    }
    const limited = await fetch(`${server.url}/api/v1/actors`, { method: 'POST' });
    assert.is(limited.status, 429);
    assert.is(limited.headers.get('content-type'), 'application/json');
    assert.match(limited.headers.get('retry-after') ?? '', /^(60|59)$/);
    assert.is(limited.headers.get('x-rate-limit-retry-after-seconds'), limited.headers.get('retry-after'));
    assert.is(limited.headers.get('x-rate-limit-remaining'), '0');
    const body = await json<Row>(limited);
    assert.is(body.code, 429);
    assert.is(body.status, 'Too Many Requests');
    assert.is(body.method, 'POST');
    assert.match(String(body.message), /^Too many requests from address 127\.0\.0\.1: the anonymous tier allow 3 per 60 s; retry in \d+ s$/);
  } finally {
    await server.close();
  }
});

test('errors and unknown routes count and carry the headers; CORS preflights do not count', async () => {
  const server = await startApp({ RATE_LIMIT: 'on', RATE_LIMIT_ANONYMOUS: '2' });
  try {
    for (let i = 0; i < 5; i++) {
      const preflight = await fetch(`${server.url}/api/v1/actors`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'GET' },
      });
      assert.is(preflight.status, 204);
      assert.is(preflight.headers.get('x-rate-limit-remaining'), null);
    }
    const missing = await server.get('/api/v1/nothing');
    assert.is(missing.status, 404);
    assert.is(missing.headers.get('x-rate-limit-remaining'), '1');
    assert.is((await server.get('/api/v1/actors/not-a-uuid')).headers.get('x-rate-limit-remaining'), '0');
    assert.is((await server.get('/api/ping')).status, 429);
  } finally {
    await server.close();
  }
});

test('TRUST_PROXY decides whether X-Forwarded-For names the client', async () => {
  for (const trust of ['true', 'false']) {
    const server = await startApp({ RATE_LIMIT: 'on', RATE_LIMIT_ANONYMOUS: '1', TRUST_PROXY: trust });
    try {
      const statuses = [];
      for (const address of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
        statuses.push((await server.get('/api/ping', { 'X-Forwarded-For': address })).status);
      }
      assert.equal(statuses, trust === 'true' ? [200, 200, 200] : [200, 429, 429], `TRUST_PROXY=${trust}`);
    } finally {
      await server.close();
    }
  }
});

test('the auth endpoints have their own stricter budget per address', async () => {
  const server = await startApp({ RATE_LIMIT: 'on', RATE_LIMIT_ANONYMOUS: '100', AUTH_RATE_LIMIT: '2' });
  try {
    const post = () => fetch(`${server.url}/api/v1/auth/authenticate`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    assert.is.not((await post()).status, 429);
    const second = await post();
    assert.is(second.headers.get('ratelimit-policy'), '"auth";q=2;w=60');
    const third = await post();
    assert.is(third.status, 429);
    assert.match(String((await json<Row>(third)).message), /the auth endpoints allow 2 per 60 s/);
    assert.is((await server.get('/api/ping')).status, 200, 'reads keep their own budget');
  } finally {
    await server.close();
  }
});

test('RATE_LIMIT=off sends no limit headers and never answers 429', async () => {
  const server = await startApp({ RATE_LIMIT: 'off', RATE_LIMIT_ANONYMOUS: '1' });
  try {
    for (let i = 0; i < 20; i++) {
      const response = await server.get('/api/ping');
      assert.is(response.status, 200);
      assert.is(response.headers.get('x-rate-limit-remaining'), null);
      assert.is(response.headers.get('ratelimit'), null);
    }
  } finally {
    await server.close();
  }
});

test('one Map serves every check: counts go down across checks of the same key', async () => {
  const counters = new SweptMap(60_000);
  const counter = new Counter({ driver: 'memory', map: counters.map }, 'rate:test', 2, 60_000);
  assert.equal((await counter.check('ip:a')).remaining, 1);
  assert.equal((await counter.check('ip:a')).remaining, 0);
  assert.is((await counter.check('ip:a')).allowed, false);
  assert.is((await counter.check('ip:b')).allowed, true);
  assert.is(counters.map.size, 2);
  counters.stop();
});

test('the sweep drops expired windows: a million one-off addresses leave the heap as it was', async () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const counters = new SweptMap(3_600_000);
  const counter = new Counter({ driver: 'memory', map: counters.map }, 'rate:anonymous', 60, 200);
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < 1_000_000; i++) await counter.check(`ip:10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
  assert.is(counters.map.size, 1_000_000);
  const grown = process.memoryUsage().heapUsed - before;
  await new Promise((resolve) => setTimeout(resolve, 250));
  assert.is(counters.sweep(), 1_000_000);
  assert.is(counters.map.size, 0);
  gc();
  const after = process.memoryUsage().heapUsed - before;
  counters.stop();
  assert.ok(grown > 50 * 2 ** 20, `a million entries should weigh something (${(grown / 2 ** 20).toFixed(1)} MB)`);
  assert.ok(after < 20 * 2 ** 20, `heap after the sweep is ${(after / 2 ** 20).toFixed(1)} MB above its start`);
});

test('login failures: the limit per username holds, other usernames and expiry are unaffected', async () => {
  const failures = new MemoryLoginFailures(3, 150);
  for (let i = 0; i < 3; i++) {
    assert.is(await failures.wait('Iris'), 0);
    await failures.record('iris');
  }
  assert.ok((await failures.wait('IRIS')) >= 1);
  assert.is(await failures.wait('tomas'), 0);
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.is(await failures.wait('iris'), 0);
  failures.stop();
});

test.run();
