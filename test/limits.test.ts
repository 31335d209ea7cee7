import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLogger } from '../src/config/logger.ts';
import { MAX_KEYS_PER_GENERATION, MemoryCounter } from '../src/limits/memory-counter.ts';
import { RateLimits } from '../src/limits/rate-limits.ts';
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
    assert.match(
      String(body.message),
      /^Too many requests from address 127\.0\.0\.1: the anonymous tier allows 3 per 60 s; retry in \d+ s$/,
    );
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
    assert.is((await server.get('/api/v1/endpoints')).status, 429);
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
        statuses.push((await server.get('/api/v1/endpoints', { 'X-Forwarded-For': address })).status);
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
    const post = () =>
      fetch(`${server.url}/api/v1/auth/authenticate`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
    assert.is.not((await post()).status, 429);
    const second = await post();
    assert.is(second.headers.get('ratelimit-policy'), '"auth";q=2;w=60');
    const third = await post();
    assert.is(third.status, 429);
    assert.match(String((await json<Row>(third)).message), /the auth endpoints allow 2 per 60 s/);
    assert.is((await server.get('/api/v1/endpoints')).status, 200, 'reads keep their own budget');
  } finally {
    await server.close();
  }
});

test('RATE_LIMIT=off sends no limit headers and never answers 429', async () => {
  const server = await startApp({ RATE_LIMIT: 'off', RATE_LIMIT_ANONYMOUS: '1' });
  try {
    for (let i = 0; i < 20; i++) {
      const response = await server.get('/api/v1/endpoints');
      assert.is(response.status, 200);
      assert.is(response.headers.get('x-rate-limit-remaining'), null);
      assert.is(response.headers.get('ratelimit'), null);
    }
  } finally {
    await server.close();
  }
});

test('one counter serves every check: counts go down across checks of the same key', async () => {
  const counter = new MemoryCounter(2, 60_000);
  assert.equal(counter.hit('ip:a').remaining, 1);
  assert.equal(counter.hit('ip:a').remaining, 0);
  assert.is(counter.hit('ip:a').allowed, false);
  assert.is(counter.hit('ip:b').allowed, true);
  assert.is(counter.size, 2);
});

test('expired windows go whole: a million one-off addresses leave the heap as it was, with no sweep', async () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  let now = 1_000_000;
  const counter = new MemoryCounter(60, 200, () => now, Infinity);
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < 1_000_000; i++) counter.hit(`ip:10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
  assert.is(counter.size, 1_000_000);
  const grown = process.memoryUsage().heapUsed - before;
  // Two windows later the next request finds both generations stale and drops them in one step.
  now += 400;
  assert.is(counter.hit('ip:192.0.2.1').remaining, 59);
  assert.is(counter.size, 1);
  gc();
  const after = process.memoryUsage().heapUsed - before;
  assert.ok(grown > 50 * 2 ** 20, `a million entries should weigh something (${(grown / 2 ** 20).toFixed(1)} MB)`);
  assert.ok(after < 20 * 2 ** 20, `heap after expiry is ${(after / 2 ** 20).toFixed(1)} MB above its start`);
});

test('a million new clients inside one window: the counters keep at most two generations of MAX_KEYS_PER_GENERATION, memory stays bounded', () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const counter = new MemoryCounter(60, 60_000);
  gc();
  const before = process.memoryUsage().heapUsed;
  let largest = 0;
  counter.hit('ip:192.0.2.1');
  for (let i = 0; i < 1_000_000; i++) {
    counter.hit(`ip:10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    largest = Math.max(largest, counter.size);
  }
  gc();
  const grown = process.memoryUsage().heapUsed - before;
  assert.is(largest, 2 * MAX_KEYS_PER_GENERATION);
  assert.ok(grown < 16 * 2 ** 20, `${(grown / 2 ** 20).toFixed(1)} MB held for ${counter.size} keys`);
  assert.is(counter.hit('ip:192.0.2.1').remaining, 59, 'a client of a generation dropped early starts over');
});

test('a window ends on time whichever generation holds the key', () => {
  let now = 0;
  const counter = new MemoryCounter(2, 100, () => now);
  counter.hit('k');
  now = 60;
  counter.hit('k');
  assert.is(counter.hit('j').allowed, true);
  now = 99;
  assert.is(counter.hit('k').allowed, false, 'third hit of k inside its window');
  now = 101;
  // The generation rotated at 100: k's window (0–100) is over, j's (60–160) is not.
  assert.is(counter.hit('k').remaining, 1, 'k starts over');
  assert.is(counter.peek('j').remaining, 1, 'j keeps its count across the rotation');
  now = 161;
  assert.is(counter.peek('j').remaining, 2, "j's window is over");
});

test('login failures: the limit per username holds, other usernames and expiry are unaffected', async () => {
  const limits = await RateLimits.open(
    {
      windowSeconds: 60,
      tiers: { anonymous: 60, BASIC: 60, DEV: 60, MAINTAINER: 60, ADMIN: Infinity },
      auth: 10,
      loginFailures: { limit: 3, windowMinutes: 0.0025 },
    },
    createLogger({ level: 'silent', format: 'text' }),
  );
  for (let i = 0; i < 3; i++) {
    assert.is(await limits.signInRefusal('Iris'), undefined);
    await limits.signInFailed('iris');
  }
  assert.is((await limits.signInRefusal('IRIS'))?.status, 429);
  assert.is(await limits.signInRefusal('tomas'), undefined);
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.is(await limits.signInRefusal('iris'), undefined);
});

test.run();
