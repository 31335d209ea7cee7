import { dirname } from 'node:path';
import { Redis } from 'ioredis';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { post, registered } from './helpers/accounts-app.ts';
import { startApp, type TestServer } from './helpers/http.ts';
import { freePort } from '../scripts/bench/ports.ts';
import { RedisServer } from '../scripts/lib/redis-server.ts';
import { MAX_LEASE, RedisCounter } from '../src/limits/redis-counter.ts';
import type { Verdict } from '../src/limits/window-counter.ts';

const redis = new RedisServer(await freePort());
await redis.start();
const shared = { RATE_LIMIT: 'on', REDIS_URL: redis.url, RATE_LIMIT_ANONYMOUS: '6' };

/** Polls until `check` holds (bounded), for states that follow a reconnect. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never happened: ${what}`);
}

/** Empties Redis, so that each test starts with fresh budgets. */
async function flush(): Promise<void> {
  const client = new Redis(redis.url);
  await client.flushall();
  client.disconnect();
}

const connected = (server: TestServer) => async () =>
  (await server.get('/api/v1/endpoints')).headers.get('x-rate-limit-limit') !== null;

test('two instances on one Redis share one budget per client', async () => {
  // A generous timeout: on a loaded machine a slow answer must not let a request through here.
  const a = await startApp({ ...shared, RATE_LIMIT_REDIS_TIMEOUT_MS: '2000', RATE_LIMIT_ANONYMOUS: '6' });
  const b = await startApp({ ...shared, RATE_LIMIT_REDIS_TIMEOUT_MS: '2000', RATE_LIMIT_ANONYMOUS: '6' });
  try {
    await eventually(connected(a), 'instance a reaches Redis');
    await eventually(connected(b), 'instance b reaches Redis');
    await flush();
    const statuses: number[] = [];
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 8; i++) {
      const response = await (i % 2 === 0 ? a : b).get('/api/v1/endpoints');
      statuses.push(response.status);
      remaining.push(response.headers.get('x-rate-limit-remaining'));
    }
    assert.equal(statuses, [200, 200, 200, 200, 200, 200, 429, 429]);
    assert.equal(remaining, ['5', '4', '3', '2', '1', '0', '0', '0']);
  } finally {
    await a.close();
    await b.close();
  }
});

/** Commands Redis has run so far. */
async function commandsRun(client: Redis): Promise<number> {
  return Number(/total_commands_processed:(\d+)/.exec(await client.info('stats'))?.[1]);
}

test('two counters on one Redis under a concurrent flood: exactly the limit is allowed; far from it, far fewer round trips than requests', async () => {
  await flush();
  const [one, two] = [new Redis(redis.url), new Redis(redis.url)];
  try {
    const a = new RedisCounter(one, 'rate:test', 300, 60_000);
    const b = new RedisCounter(two, 'rate:test', 300, 60_000);
    const verdicts: Verdict[] = [];
    // Waves of 50 concurrent requests, alternating instances, as 50 connections through a balancer would send them.
    for (let wave = 0; wave < 20; wave++) {
      verdicts.push(...(await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).hit('203.0.113.7')))));
    }
    assert.is(verdicts.filter((v) => v.allowed).length, 300, 'exactly the limit, across both');
    const remaining = verdicts
      .filter((v) => v.allowed)
      .map((v) => v.remaining)
      .sort((x, y) => x - y);
    assert.equal(
      remaining,
      Array.from({ length: 300 }, (_, i) => i),
      'every place given once: each remaining count once',
    );
    // Far from its limit, a busy client costs a round trip per batch of places, not per request.
    const roomy = new RedisCounter(one, 'rate:roomy', 1_000_000, 60_000);
    const before = await commandsRun(one);
    for (let wave = 0; wave < 20; wave++) await Promise.all(Array.from({ length: 50 }, () => roomy.hit('203.0.113.7')));
    const rounds = (await commandsRun(one)) - before - 1;
    assert.ok(rounds <= 100, `${rounds} round trips for 1000 requests, at least ten to one`);
  } finally {
    one.disconnect();
    two.disconnect();
  }
});

test('places an instance took ahead and did not use cost the client at most a bounded number of requests', async () => {
  await flush();
  const [one, two] = [new Redis(redis.url), new Redis(redis.url)];
  try {
    const a = new RedisCounter(one, 'rate:test', 1000, 60_000);
    const b = new RedisCounter(two, 'rate:test', 1000, 60_000);
    // A burst on instance a, which then sees no more of this client; the rest goes to b.
    await Promise.all(Array.from({ length: 50 }, () => a.hit('198.51.100.4')));
    let allowed = 50;
    for (let i = 0; i < 1100; i++) if ((await b.hit('198.51.100.4')).allowed) allowed++;
    assert.ok(allowed <= 1000, `${allowed} allowed: never more than the limit`);
    assert.ok(
      allowed >= 1000 - 1.5 * MAX_LEASE,
      `${allowed} allowed: at most ${1.5 * MAX_LEASE} places lost to a's lease`,
    );
    const single = new RedisCounter(one, 'rate:alone', 5, 60_000);
    const one_by_one = [];
    for (let i = 0; i < 7; i++) one_by_one.push((await single.hit('192.0.2.1')).allowed);
    assert.equal(
      one_by_one,
      [true, true, true, true, true, false, false],
      'a client that is not busy is counted exactly',
    );
  } finally {
    one.disconnect();
    two.disconnect();
  }
});

test('failed sign-ins are counted in Redis: failures on one instance block the username on the other', async () => {
  const env = { ...shared, RATE_LIMIT_REDIS_TIMEOUT_MS: '2000', AUTH_RATE_LIMIT: '100', LOGIN_FAILURE_LIMIT: '2' };
  const a = await startApp(env);
  const b = await startApp(env, dirname(a.file));
  try {
    await eventually(connected(a), 'instance a reaches Redis');
    await eventually(connected(b), 'instance b reaches Redis');
    await flush();
    await registered(a.url, 'shared');
    const attempt = (url: string, password: string) =>
      post(url, '/api/v1/auth/authenticate', { username: 'user_shared', password });
    assert.is((await attempt(a.url, 'wrong one')).status, 401);
    assert.is((await attempt(b.url, 'wrong two')).status, 401);
    assert.is((await attempt(a.url, 'password of shared')).status, 429);
    assert.is((await attempt(b.url, 'password of shared')).status, 429);
  } finally {
    await a.close();
    await b.close();
  }
});

test('a slow Redis does not hold requests: they are answered while Redis is still asleep', async () => {
  const server = await startApp({ ...shared, RATE_LIMIT_ANONYMOUS: '1000' });
  const client = new Redis(redis.url);
  try {
    await eventually(connected(server), 'the instance reaches Redis');
    let awake = false;
    const sleeping = client.call('DEBUG', 'SLEEP', '2').then(() => (awake = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (let i = 0; i < 3; i++) {
      const response = await server.get('/api/v1/endpoints');
      assert.is(response.status, 200);
      assert.is(response.headers.get('x-rate-limit-limit'), null, 'served without a limit');
    }
    assert.is(awake, false, 'every answer came before Redis woke up');
    await sleeping;
  } finally {
    client.disconnect();
    await server.close();
  }
});

test('Redis stopped mid-test: requests are still served; limits resume when it returns', async () => {
  const server = await startApp({ ...shared, RATE_LIMIT_ANONYMOUS: '3', RATE_LIMIT_REDIS_TIMEOUT_MS: '2000' });
  try {
    await eventually(connected(server), 'the instance reaches Redis');
    await redis.stop();
    for (let i = 0; i < 10; i++) assert.is((await server.get('/api/v1/endpoints')).status, 200);
    await redis.start();
    await eventually(connected(server), 'the instance reconnects');
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await server.get('/api/v1/endpoints')).status);
    assert.ok(statuses.includes(429), `limited again: ${statuses}`);
  } finally {
    await server.close();
  }
});

test.after(() => redis.stop());
test.run();
