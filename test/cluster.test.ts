import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort } from '../scripts/bench/ports.ts';
import { RedisServer } from '../scripts/lib/redis-server.ts';
import { get, newUser, post } from './helpers/accounts-app.ts';
import { tempDir, TEST_ENV } from './helpers/http.ts';
import { Nginx } from '../scripts/lib/nginx.ts';
import { listeningUrl, ROOT, runScript, startServer } from './helpers/spawn.ts';

// Three instances of the server share accounts and limits through one real redis-server (with
// an append-only file, as docs/scaling.md tells deployments to keep), behind a real nginx.
const redis = new RedisServer(await freePort(), await tempDir());
await redis.start();
const SHARED = {
  ...TEST_ENV,
  // As docs/scaling.md says: instances reached at different addresses name their pictures alike only with one.
  PUBLIC_URL: 'https://catalog.example.org',
  LOG_LEVEL: 'info',
  RATE_LIMIT: 'on',
  RATE_LIMIT_ANONYMOUS: '40',
  RATE_LIMIT_BASIC: '100000',
  AUTH_RATE_LIMIT: '100000',
  TRUST_PROXY: '1',
  ACCOUNTS_STORE: 'redis',
  REDIS_URL: redis.url,
  RATE_LIMIT_REDIS_TIMEOUT_MS: '1000',
  JWT_SECRET: 'one secret that every instance of the cluster shares',
  MAX_CONNECTIONS_PER_ADDRESS: '10000',
};

async function instance(): Promise<{ server: ReturnType<typeof startServer>; url: string; port: number }> {
  const server = startServer({ ...SHARED, ACCOUNTS_FILE: join(await tempDir(), 'unused.json') });
  const url = await listeningUrl(server);
  return { server, url, port: Number(new URL(url).port) };
}

const instances = await Promise.all([instance(), instance(), instance()]);
const nginx = new Nginx(
  await freePort(),
  instances.map((i) => i.port),
);
await nginx.start();
const through = nginx.url;

/**
 * How long a change may take to reach every instance here. Instances hear of a change by
 * Redis pub/sub and, should a message be lost, by polling every 500 ms: within a second on an
 * idle machine. The tests allow five, so that a loaded CI machine cannot fail them; a change
 * that is never propagated still fails.
 */
const PROPAGATION_MS = 5000;

/** Polls `check` every 50 ms for at most `ms`; true once it held. */
async function within(ms: number, check: () => Promise<boolean>): Promise<boolean> {
  for (const deadline = Date.now() + ms; ;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('200 concurrent registrations through nginx all land; 50 of one username give exactly one 201', async () => {
  const answers = await Promise.all(
    Array.from({ length: 200 }, (_, n) => post(through, '/api/v1/auth/register', newUser(`c${n}`))),
  );
  assert.equal(
    answers.map((a) => a.status),
    Array(200).fill(201),
  );
  const same = await Promise.all(
    Array.from({ length: 50 }, (_, n) =>
      post(through, '/api/v1/auth/register', newUser(`same${n}`, { username: 'the_one' })),
    ),
  );
  assert.equal(same.map((a) => a.status).sort(), [201, ...Array(49).fill(409)]);
  for (const answer of same.filter((a) => a.status === 409))
    assert.match(String(answer.body.message), /^Username 'the_one' is already registered$/);
});

test('every registered user signs in through nginx, and its token works on every instance', async () => {
  const signIns = await Promise.all(
    Array.from({ length: 200 }, (_, n) =>
      post(through, '/api/v1/auth/authenticate', { username: `user_c${n}`, password: `password of c${n}` }),
    ),
  );
  assert.equal(
    signIns.map((a) => a.status),
    Array(200).fill(200),
  );
  for (const [n, answer] of signIns.entries()) {
    if (n % 20 !== 0) continue;
    for (const { url } of instances) {
      const read = await get(url, '/api/v1/overview', String(answer.body.token));
      assert.is(read.status, 200, `user_c${n} on ${url}`);
      assert.is(read.headers.get('ratelimit-policy'), '"basic";q=100000;w=60');
    }
  }
});

test('an account deleted through one instance has its token refused by all three', async () => {
  const signedIn = await post(through, '/api/v1/auth/authenticate', {
    username: 'user_c7',
    password: 'password of c7',
  });
  const token = String(signedIn.body.token);
  for (const { url } of instances) assert.is((await get(url, '/api/v1/overview', token)).status, 200);
  assert.is(
    (await post(instances[0]!.url, '/api/v1/auth/delete', { username: 'user_c7', password: 'password of c7' })).status,
    204,
  );
  const refusedEverywhere = await within(PROPAGATION_MS, async () => {
    const statuses = await Promise.all(
      instances.map(({ url }) => get(url, '/api/v1/overview', token).then((a) => a.status)),
    );
    return statuses.every((status) => status === 401);
  });
  assert.ok(refusedEverywhere, 'refused by every instance');
});

const curator = await runScript(
  'scripts/accounts.ts',
  ['create', '--username', 'curator', '--email', 'curator@example.org', '--role', 'MAINTAINER'],
  { ...SHARED, ACCOUNT_PASSWORD: 'the curator password' },
);
if (curator.code !== 0) throw new Error(curator.stderr);
const maintainer = String(
  (await post(through, '/api/v1/auth/authenticate', { username: 'curator', password: 'the curator password' })).body
    .token,
);

async function write(
  url: string,
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url + path, {
    method,
    headers: { Authorization: `Bearer ${maintainer}`, 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

test('a catalog write through one instance is served by all three: record, list, search, overview, GraphQL', async () => {
  const count = async (url: string) =>
    ((await get(url, '/api/v1/overview', maintainer)).body.data_count as Record<string, number>).locations!;
  const before = await count(instances[2]!.url);
  const made = await write(instances[0]!.url, 'POST', '/api/v1/locations', {
    name: 'Clustered Quay',
    language: 'en-US',
  });
  assert.is(made.status, 201, JSON.stringify(made.body));
  const uuid = String(made.body.uuid);
  const graphql = `/api/graphql?query=${encodeURIComponent(`{ location(uuid: "${uuid}") { name } }`)}`;
  for (const { url } of instances.slice(1)) {
    const servedEverywhere = await within(PROPAGATION_MS, async () => {
      const [record, found, overview, viaGraphql] = await Promise.all([
        get(url, `/api/v1/locations/${uuid}`, maintainer),
        get(url, '/api/v1/locations?q=clustered+quay', maintainer),
        count(url),
        get(url, graphql, maintainer),
      ]);
      return (
        record.status === 200 &&
        JSON.stringify(found.body).includes(uuid) &&
        overview === before + 1 &&
        JSON.stringify(viaGraphql.body).includes('Clustered Quay')
      );
    });
    assert.ok(servedEverywhere, `served by ${url}`);
  }
  const renamed = await write(instances[1]!.url, 'PATCH', `/api/v1/locations/${uuid}`, { name: 'Clustered Pier' });
  assert.is(renamed.status, 200);
  assert.ok(
    await within(
      PROPAGATION_MS,
      async () =>
        (await get(instances[0]!.url, `/api/v1/locations/${uuid}`, maintainer)).body.name === 'Clustered Pier',
    ),
    'the change is served by the first instance',
  );
});

test('the same If-Match through two instances at once: exactly one 200 and one 412', async () => {
  const actor = String(
    ((await get(through, '/api/v1/actors?size=1', maintainer)).body as unknown as Record<string, unknown>[])[0]!.uuid,
  );
  for (let round = 0; round < 5; round++) {
    const tags = await Promise.all(
      instances.map(async ({ url }) =>
        (
          await fetch(`${url}/api/v1/actors/${actor}`, { headers: { Authorization: `Bearer ${maintainer}` } })
        ).headers.get('etag'),
      ),
    );
    assert.ok(
      tags.every((tag) => tag === tags[0]),
      `every instance serves the same tag: ${tags.join(' ')}`,
    );
    const answers = await Promise.all(
      [1, 2].map((n) =>
        write(
          instances[n]!.url,
          'PATCH',
          `/api/v1/actors/${actor}`,
          { nationality: `Round ${round} by ${n}` },
          { 'If-Match': tags[0]! },
        ),
      ),
    );
    assert.equal(answers.map((a) => a.status).sort(), [200, 412], JSON.stringify(answers));
    // The next round reads the winner's tag from every instance.
    const settled = await within(PROPAGATION_MS, async () => {
      const now = await Promise.all(
        instances.map(async ({ url }) =>
          (
            await fetch(`${url}/api/v1/actors/${actor}`, { headers: { Authorization: `Bearer ${maintainer}` } })
          ).headers.get('etag'),
        ),
      );
      return now.every((tag) => tag === now[0] && tag !== tags[0]);
    });
    assert.ok(settled, `round ${round}: every instance serves the winner's tag`);
  }
});

test('npm run catalog lists the writes kept in the shared Redis, and export --dry-run says what it would fold', async () => {
  const listed = await runScript('scripts/catalog.ts', ['changes'], SHARED);
  assert.is(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, /^#2 \S+ curator: POST \/api\/v1\/locations\n {4}added location '/);
  assert.match(listed.stdout, /curator: PATCH \/api\/v1\/actors\/.*\n {4}changed actor '.*': nationality, updated_at/);
  const dry = await runScript('scripts/catalog.ts', ['export', '--dry-run'], SHARED);
  assert.is(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /^locations\.json: added location '/m);
  assert.match(dry.stdout, /dry run: \d+ file\(s\) in .* would change; nothing written/);
});

test('the anonymous budget holds for the cluster, not per instance', async () => {
  const client = new Redis(redis.url);
  const keys = await client.keys('rate:anonymous:*');
  if (keys.length) await client.del(...keys);
  client.disconnect();
  const statuses: number[] = [];
  for (let i = 0; i < 50; i++) statuses.push((await fetch(`${through}/api/v1/endpoints`)).status);
  assert.equal(statuses.filter((s) => s === 200).length, 40);
  assert.equal(statuses.slice(40), Array(10).fill(429));
});

test('SIGKILL of one instance during a burst of registrations: no acknowledged account is lost, the others serve', async () => {
  const burst = Array.from({ length: 120 }, (_, n) =>
    post(through, '/api/v1/auth/register', newUser(`k${n}`)).catch(() => ({ status: 0, body: {} })),
  );
  await new Promise((resolve) => setTimeout(resolve, 30));
  instances[1]!.server.child.kill('SIGKILL');
  const answers = await Promise.all(burst);
  const acknowledged = answers.flatMap((answer, n) => (answer.status === 201 ? [n] : []));
  assert.ok(acknowledged.length > 0, `some registrations were acknowledged: ${answers.map((a) => a.status)}`);
  for (const n of acknowledged) {
    const signIn = await post(through, '/api/v1/auth/authenticate', {
      username: `user_k${n}`,
      password: `password of k${n}`,
    });
    assert.is(signIn.status, 200, `user_k${n} was acknowledged, so it must sign in`);
  }
  for (let i = 0; i < 6; i++)
    assert.is((await fetch(`${through}/api/ping`)).status, 200, 'the two others keep serving');
});

test('Redis stopped: reads go on, account requests are 503 with Retry-After; Redis back: everything works', async () => {
  const alive = instances.filter((i) => i.server.child.exitCode === null && i.server.child.signalCode === null);
  await redis.stop();
  try {
    for (let i = 0; i < 4; i++) assert.is((await fetch(`${through}/api/v1/overview`)).status, 200);
    const refused = await post(alive[0]!.url, '/api/v1/auth/authenticate', {
      username: 'user_c1',
      password: 'password of c1',
    });
    assert.is(refused.status, 503);
    assert.match(refused.headers.get('retry-after') ?? '', /^\d+$/);
    assert.match(String(refused.body.message), /^The accounts store is unreachable/);
    assert.is((await post(alive[1]!.url, '/api/v1/auth/register', newUser('during_outage'))).status, 503);
    const catalogWrite = await write(alive[0]!.url, 'POST', '/api/v1/games', {
      name: 'Written During The Outage',
      language: 'en-US',
    });
    assert.is(catalogWrite.status, 503);
    assert.match(String(catalogWrite.body.message), /^The catalog change could not be saved \(Redis: /);
  } finally {
    await redis.start();
  }
  let last = '';
  const back = await within(15_000, async () => {
    const answer = await post(through, '/api/v1/auth/authenticate', {
      username: 'user_c1',
      password: 'password of c1',
    });
    last = `${answer.status} ${JSON.stringify(answer.body)}`;
    return answer.status === 200;
  });
  assert.ok(back, `signs in again once Redis is back (last answer: ${last})`);
  assert.is((await post(through, '/api/v1/auth/register', newUser('after_outage'))).status, 201);
});

test('accounts exported from a file store and imported into Redis sign in with their old passwords', async () => {
  const file = join(await tempDir(), 'accounts.json');
  const cli = async (args: string[], env: Record<string, string>, input?: string) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/accounts.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...TEST_ENV, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdin.end(input ?? '');
    const [code] = (await once(child, 'exit')) as [number];
    return { code, stdout, stderr };
  };
  for (const name of ['moved_one', 'moved_two']) {
    const created = await cli(['create', '--username', name, '--email', `${name}@example.org`], {
      ACCOUNTS_FILE: file,
      ACCOUNT_PASSWORD: `password of ${name}`,
    });
    assert.is(created.code, 0, created.stderr);
  }
  const exported = await cli(['export'], { ACCOUNTS_FILE: file });
  assert.is(exported.code, 0, exported.stderr);
  const redisEnv = { ACCOUNTS_STORE: 'redis', REDIS_URL: redis.url, JWT_SECRET: SHARED.JWT_SECRET };
  const imported = await cli(['import'], redisEnv, exported.stdout);
  assert.is(imported.code, 0, imported.stderr);
  assert.match(imported.stdout, /^imported 2 accounts into the shared Redis/);
  const again = await cli(['import'], redisEnv, exported.stdout);
  assert.is(again.code, 1);
  assert.match(again.stderr, /refused: username 'moved_one' and email 'moved_one@example.org' already there/);
  for (const name of ['moved_one', 'moved_two']) {
    assert.is(
      (await post(through, '/api/v1/auth/authenticate', { username: name, password: `password of ${name}` })).status,
      200,
      name,
    );
  }
});

test.after(async () => {
  await nginx.stop();
  for (const { server } of instances)
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  await redis.stop();
});
test.run();
