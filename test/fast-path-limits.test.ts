import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort } from '../scripts/bench/ports.ts';
import { RedisServer } from '../scripts/lib/redis-server.ts';
import { post, registered } from './helpers/accounts-app.ts';
import { dataFile, startApp, type TestServer } from './helpers/http.ts';
import { byFastPath, rawGet, type RawAnswer } from './helpers/raw-get.ts';

/** Headers by lower-case name, without those that differ per moment or connection, or count down per request. */
function headersOf(answer: RawAnswer): Record<string, string> {
  const skip = [
    'date',
    'connection',
    'keep-alive',
    'x-rate-limit-remaining',
    'ratelimit',
    'x-rate-limit-reset',
    'retry-after',
    'x-rate-limit-retry-after-seconds',
  ];
  return Object.fromEntries(
    answer.raw
      .filter(([name]) => !skip.includes(name.toLowerCase()))
      .map(([name, value]) => [name.toLowerCase(), value]),
  );
}

const header = (answer: RawAnswer, name: string) => answer.raw.find(([n]) => n.toLowerCase() === name)?.[1];

/** The same answer but for the budget, which went down by one between the two (and by `between` requests made in between). */
function assertSame(koa: RawAnswer, fast: RawAnswer, what: string, between = 0): void {
  assert.not.ok(byFastPath(koa), `${what}: the first answer comes from Koa`);
  assert.ok(byFastPath(fast), `${what}: the second from the fast path`);
  assert.is(fast.status, koa.status, what);
  assert.equal(headersOf(fast), headersOf(koa), what);
  for (const name of ['x-rate-limit-remaining', 'x-rate-limit-reset', 'ratelimit'])
    assert.ok(header(fast, name) !== undefined && header(koa, name) !== undefined, `${what}: ${name}`);
  const remaining = Number(header(koa, 'x-rate-limit-remaining'));
  assert.is(
    Number(header(fast, 'x-rate-limit-remaining')),
    Math.max(0, remaining - 1 - between),
    `${what}: counted once more`,
  );
  if (koa.status === 429) assert.is(header(fast, 'retry-after') !== undefined, true, `${what}: Retry-After`);
  if (header(koa, 'content-type') === 'application/json' && koa.status >= 400) {
    const { timestamps: _a, ...one } = JSON.parse(koa.body.toString()) as Record<string, unknown>;
    const { timestamps: _b, ...two } = JSON.parse(fast.body.toString()) as Record<string, unknown>;
    assert.equal(two, one, what);
  } else {
    assert.equal(fast.body, koa.body, what);
  }
}

const [actor] = await dataFile('actors.json');
const redis = new RedisServer(await freePort());
await redis.start();

for (const driver of ['memory', 'redis'] as const) {
  const env = {
    RATE_LIMIT: 'on',
    RATE_LIMIT_ANONYMOUS: '200',
    RATE_LIMIT_BASIC: '200',
    ...(driver === 'redis' ? { REDIS_URL: redis.url, RATE_LIMIT_REDIS_TIMEOUT_MS: '10000' } : {}),
  };
  const test = suite<{ server: TestServer }>(`fast path with rate limits (${driver})`, {
    server: undefined as unknown as TestServer,
  });
  test.before(async (context) => {
    context.server = await startApp(env);
    if (driver === 'redis') {
      for (
        let i = 0;
        i < 100 && (await context.server.get('/api/v1/endpoints')).headers.get('x-rate-limit-limit') === null;
        i++
      )
        await new Promise((r) => setTimeout(r, 50));
    }
  });
  test.after(({ server }) => server.close());

  test('limited reads: the same answer as Koa, counted once per request, anonymous and with a token', async ({
    server,
  }) => {
    const token = await registered(server.url, `reader_${driver}`);
    const cases: [string, Record<string, string>][] = [
      [`/api/v1/actors/${actor!.uuid}`, {}],
      ['/api/v1/episodes?size=3', { 'Accept-Encoding': 'br', 'Accept-Language': 'pt-BR' }],
      ['/api/v1/characters?size=2', { Authorization: `Bearer ${token}` }],
      ['/api/v1/actors?frist_name=Ana', { Authorization: `Bearer ${token}` }],
      ['/api/v1/nothing', {}],
    ];
    for (const [path, headers] of cases) {
      await rawGet(server.url, path, headers); // asked once: Koa, not remembered
      const koa = await rawGet(server.url, path, headers);
      const fast = await rawGet(server.url, path, headers);
      assertSame(koa, fast, `${path} ${JSON.stringify(headers)}`);
      if (headers.Authorization)
        assert.is(header(fast, 'ratelimit-policy'), '"basic";q=200;w=60', 'a token counts in its tier');
    }
  });

  test('a refused token: the same 401 from the fast path as from Koa, counted against the address', async ({
    server,
  }) => {
    const path = '/api/v1/locations?size=1';
    const bad = { Authorization: 'Bearer not.a.token' };
    const koa = await rawGet(server.url, path, bad); // the URL is new: Koa answers
    await rawGet(server.url, path);
    await rawGet(server.url, path); // asked again: now the fast path knows it
    const fast = await rawGet(server.url, path, bad);
    assert.is(koa.status, 401);
    assert.is(header(fast, 'ratelimit-policy'), '"anonymous";q=200;w=60');
    assertSame(koa, fast, 'refused token', 2);
  });

  test("a deleted account's token is refused on its next request, on either path", async ({ server }) => {
    const token = await registered(server.url, `gone_${driver}`);
    const path = `/api/v1/actors/${actor!.uuid}?fields=first_name`;
    assert.is((await rawGet(server.url, path, { Authorization: `Bearer ${token}` })).status, 200);
    assert.is((await rawGet(server.url, path, { Authorization: `Bearer ${token}` })).status, 200);
    assert.is(
      (
        await post(server.url, '/api/v1/auth/delete', {
          username: `user_gone_${driver}`,
          password: `password of gone_${driver}`,
        })
      ).status,
      204,
    );
    const after = await rawGet(server.url, path, { Authorization: `Bearer ${token}` });
    assert.ok(byFastPath(after));
    assert.is(after.status, 401);
    assert.match(JSON.parse(after.body.toString()).message, /no longer exists/);
  });

  test.run();
}

const flood = suite(`the 429 of a spent budget, from Koa and from the fast path`);
for (const driver of ['memory', 'redis'] as const) {
  flood(driver, async () => {
    const server = await startApp({
      RATE_LIMIT: 'on',
      RATE_LIMIT_ANONYMOUS: '2',
      ...(driver === 'redis' ? { REDIS_URL: redis.url, RATE_LIMIT_REDIS_TIMEOUT_MS: '10000' } : {}),
    });
    try {
      if (driver === 'redis') {
        const { Redis } = await import('ioredis');
        const client = new Redis(redis.url);
        for (let i = 0; i < 100 && (await rawGet(server.url, '/api/ping')).status !== 200; i++)
          await new Promise((r) => setTimeout(r, 50));
        await client.flushall();
        client.disconnect();
      }
      const path = `/api/v1/actors/${actor!.uuid}`;
      const seen = { Origin: 'https://seen.example.com' };
      assert.is((await rawGet(server.url, path, seen)).status, 200); // Koa, not remembered yet
      assert.is((await rawGet(server.url, path, seen)).status, 200); // Koa again, remembered: the budget is spent
      const koa = await rawGet(server.url, path, { Origin: 'https://new.example.com' }); // a key the fast path has not seen
      const fast = await rawGet(server.url, path, seen);
      assert.is(koa.status, 429);
      assert.not.ok(byFastPath(koa));
      assert.ok(byFastPath(fast));
      assert.is(fast.status, 429);
      assert.equal(headersOf(fast), headersOf(koa));
      assert.is(header(fast, 'x-rate-limit-remaining'), '0');
      assert.is(header(fast, 'retry-after'), header(koa, 'retry-after'));
      const { timestamps: _a, ...one } = JSON.parse(koa.body.toString()) as Record<string, unknown>;
      const { timestamps: _b, ...two } = JSON.parse(fast.body.toString()) as Record<string, unknown>;
      assert.equal(two, one);
    } finally {
      await server.close();
    }
  });
}
for (const driver of ['memory', 'redis'] as const) {
  flood(
    `${driver}: a client refused from its start is refused by the fast path, and admitted again by Koa, counted once`,
    async () => {
      const server = await startApp({
        RATE_LIMIT: 'on',
        RATE_LIMIT_ANONYMOUS: '1',
        RATE_LIMIT_WINDOW_SECONDS: '4',
        ...(driver === 'redis' ? { REDIS_URL: redis.url, RATE_LIMIT_REDIS_TIMEOUT_MS: '10000' } : {}),
      });
      try {
        if (driver === 'redis') {
          const { Redis } = await import('ioredis');
          const client = new Redis(redis.url);
          for (let i = 0; i < 100 && (await rawGet(server.url, '/api/ping')).status !== 200; i++)
            await new Promise((r) => setTimeout(r, 50));
          await client.flushall(); // the address's count from the tests before
          client.disconnect();
        }
        // No other client asks this URL, so no answer of it is ever kept: only its 429s teach the fast path.
        const path = `/api/v1/actors/${actor!.uuid}?refused=${driver}`;
        const first = await rawGet(server.url, path);
        const refused = [
          await rawGet(server.url, path),
          await rawGet(server.url, path),
          await rawGet(server.url, path),
        ];
        assert.equal([first.status, ...refused.map((answer) => answer.status)], [200, 429, 429, 429]);
        assert.equal(refused.map(byFastPath), [false, false, true], 'the third 429 comes from the fast path');
        assert.equal(headersOf(refused[2]!), headersOf(refused[1]!));
        const reset = Number(header(refused[2]!, 'x-rate-limit-reset')) * 1000;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, reset - Date.now()) + 100));
        const admitted = await rawGet(server.url, path);
        assert.is(admitted.status, 200, 'counted once in the new window (twice would be a 429)');
        assert.not.ok(byFastPath(admitted), 'answered by Koa');
        assert.is(header(admitted, 'x-rate-limit-remaining'), '0');
        const again = await rawGet(server.url, path);
        assert.is(again.status, 429);
        assert.ok(byFastPath(again));
      } finally {
        await server.close();
      }
    },
  );
}
flood(
  'a flood from several clients at once: each 429 names its own client, page or JSON as asked, with a fresh timestamp',
  async () => {
    const server = await startApp({ RATE_LIMIT: 'on', RATE_LIMIT_ANONYMOUS: '1', TRUST_PROXY: '1' });
    try {
      const path = `/api/v1/actors/${actor!.uuid}`;
      const clients = ['198.51.100.1', '198.51.100.2', '198.51.100.3'];
      for (const address of clients) await rawGet(server.url, path, { 'X-Forwarded-For': address }); // each spends its budget of one
      const started = Date.now();
      const asked = Array.from({ length: 300 }, (_, n) => ({ address: clients[n % 3]!, html: n % 7 === 0 }));
      const answers = await Promise.all(
        asked.map(({ address, html }) =>
          rawGet(server.url, path, { 'X-Forwarded-For': address, ...(html ? { Accept: 'text/html' } : {}) }),
        ),
      );
      for (const [n, answer] of answers.entries()) {
        const { address, html } = asked[n]!;
        assert.is(answer.status, 429);
        const text = answer.body.toString();
        assert.ok(text.includes(`address ${address}:`), `answer ${n} names ${address}: ${text}`);
        if (html) {
          assert.match(header(answer, 'content-type')!, /^text\/html/);
          continue;
        }
        const body = JSON.parse(text) as { timestamps: string };
        assert.ok(Date.parse(body.timestamps) >= started - 1, `answer ${n} was stamped when it was made`);
        assert.is(Number(header(answer, 'content-length')), Buffer.byteLength(text));
      }
      assert.ok(answers.filter(byFastPath).length > 250, 'the flood was answered by the fast path');
    } finally {
      await server.close();
    }
  },
);
flood.after(() => redis.stop());
flood.run();
