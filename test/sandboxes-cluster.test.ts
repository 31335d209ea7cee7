import { join } from 'node:path';
import { Redis } from 'ioredis';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort } from '../scripts/bench/ports.ts';
import { RedisServer } from '../scripts/lib/redis-server.ts';
import { RedisOverlayStore } from '../src/catalog-writes/redis-store.ts';
import { registered } from './helpers/accounts-app.ts';
import { caller, graphqlData, type Answer, type Json } from './helpers/curator-calls.ts';
import { seqOf } from './helpers/overlay-file.ts';
import { startApp, tempDir, TEST_ENV, type TestServer } from './helpers/http.ts';
import { runScript } from './helpers/spawn.ts';

// Classroom sandboxes kept in Redis (ACCOUNTS_STORE=redis): three instances of the compiled
// server share one real redis-server (with an append-only file, so that it keeps them across its
// own restart). A student's writes and resets through any instance are served by all three, to
// that student alone.
const redis = new RedisServer(await freePort(), await tempDir());
await redis.start();
const ENV = {
  CLASSROOM: 'on',
  ACCOUNTS_STORE: 'redis',
  REDIS_URL: redis.url,
  JWT_SECRET: 'one secret that every instance of the classroom shares',
};
const dirs = await Promise.all([0, 1, 2].map(() => tempDir()));
const apps: TestServer[] = await Promise.all(dirs.map((dir) => startApp(ENV, dir)));
const NAMES = ['A', 'B', 'C'];

/**
 * How long a change may take to reach every instance here. Instances hear of a change by
 * Redis pub/sub and, should a message be lost, by looking every 500 ms: within a second on an
 * idle machine (the times are printed at the end). The tests allow five, so that a loaded CI
 * machine cannot fail them; a change that is never propagated still fails.
 */
const PROPAGATION_MS = 5000;

/** How long each change took to be served by each instance, from its acknowledgement. */
const measured: string[] = [];

/**
 * Waits until `check` holds on each of `on` (polled every 20 ms, all at once), for at most
 * PROPAGATION_MS, and records how long each took after `since`, the change's acknowledgement.
 */
async function served(
  what: string,
  since: number,
  on: number[],
  check: (app: TestServer) => Promise<boolean>,
): Promise<void> {
  const took = await Promise.all(
    on.map(async (n) => {
      for (;;) {
        if (await check(apps[n]!)) return Date.now() - since;
        if (Date.now() - since > PROPAGATION_MS) return undefined;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }),
  );
  const shown = on.map((n, at) => `${NAMES[n]} ${took[at] ?? 'never'} ms`).join(', ');
  measured.push(`${what}: ${shown}`);
  for (const [at, ms] of took.entries())
    assert.ok(ms !== undefined, `${what}: not served by ${NAMES[on[at]!]} within ${PROPAGATION_MS} ms`);
}

/** `GET path` on `app` as `token` (none: anonymous). */
async function read(app: TestServer, path: string, token?: string): Promise<{ status: number; body: unknown }> {
  const response = await app.get(path, token ? { Authorization: `Bearer ${token}` } : {});
  return { status: response.status, body: (await response.json()) as unknown };
}

/** A GraphQL request on `app` as `token`: its data, after checking it had no errors. */
const graphql = (app: TestServer, token: string, query: string, variables: Json = {}) =>
  graphqlData(app, token, query, variables);

/** Asserts `answer` is a 201 and returns the uuid it made. */
function made(answer: Answer): string {
  assert.is(answer.status, 201, JSON.stringify(answer.body));
  return String(answer.body.uuid);
}

const nameOf = async (app: TestServer, uuid: string, token?: string) => {
  const answer = await read(app, `/api/v1/locations/${uuid}`, token);
  return answer.status === 200 ? String((answer.body as Json).name) : answer.status;
};
const writesOf = async (app: TestServer, token: string) =>
  ((await caller(app, token)('GET', '/api/v1/sandbox')).body as Json).writes;

const student = await registered(apps[0]!.url, 'cluster_student');
const other = await registered(apps[1]!.url, 'cluster_other');
let pier = '';

test("a student's REST write through A is read through B and C, and by no one else on any instance", async () => {
  const shared = await Promise.all(apps.map(async (app) => (await read(app, '/api/v1/locations?size=100')).body));
  pier = made(await caller(apps[0]!, student)('POST', '/api/v1/locations', { name: 'Pier of the cluster' }));
  await served('a REST write through A', Date.now(), [1, 2], async (app) => (await nameOf(app, pier, student)) !== 404);
  for (const [n, app] of apps.entries()) {
    assert.is(await nameOf(app, pier, student), 'Pier of the cluster');
    assert.is(await writesOf(app, student), 1);
    assert.is(await nameOf(app, pier), 404, 'anonymous');
    assert.is(await nameOf(app, pier, other), 404, 'another student');
    assert.equal((await read(app, '/api/v1/locations?size=100')).body, shared[n], 'the anonymous list');
  }
  const client = new Redis(redis.url);
  try {
    assert.is(await client.zcard('{catalog}:sandboxes:writes'), 1, 'kept under the sandboxes keys');
    // The shared overlay holds the mark of the data the instances booted with, for the change feed, and no write.
    const shared = await client.zrange('{catalog}:overlay:writes', 0, -1);
    assert.ok(
      shared.every((member) => member.includes('"mark":{"data"')),
      'not in the shared catalog overlay',
    );
  } finally {
    client.disconnect();
  }
});

test('a GraphQL mutation through B right after a REST write through A is staged on it, and read through A and C', async () => {
  const second = made(await caller(apps[0]!, student)('POST', '/api/v1/locations', { name: 'Second pier' }));
  // At once, through another instance: it reads what the store holds before it stages.
  const data = await graphql(
    apps[1]!,
    student,
    'mutation ($u: ID!, $n: String) { update_location(uuid: $u, patch: { name: $n }) { name } }',
    { u: second, n: 'Renamed through GraphQL' },
  );
  const acknowledged = Date.now();
  assert.equal(data.update_location, { name: 'Renamed through GraphQL' });
  await served(
    'a GraphQL mutation through B',
    acknowledged,
    [0, 2],
    async (app) => (await nameOf(app, second, student)) === 'Renamed through GraphQL',
  );
  const viaGraphql = await graphql(apps[2]!, student, `{ location(uuid: "${second}") { name } }`);
  assert.equal(viaGraphql.location, { name: 'Renamed through GraphQL' });
  for (const app of apps) {
    assert.is(await writesOf(app, student), 3);
    assert.is(await nameOf(app, second), 404, 'anonymous');
  }
});

let others: string[] = [];

test("DELETE /api/v1/sandbox through C resets it on every instance; another student's write right after is kept", async () => {
  others = [made(await caller(apps[1]!, other)('POST', '/api/v1/locations', { name: 'Pier of the other' }))];
  await served(
    'a REST write through B',
    Date.now(),
    [0, 2],
    async (app) => (await nameOf(app, others[0]!, other)) !== 404,
  );
  assert.is((await caller(apps[2]!, student)('DELETE', '/api/v1/sandbox')).status, 204);
  const reset = Date.now();
  // One account's reset, then another's write elsewhere: every instance must see both.
  others.push(made(await caller(apps[0]!, other)('POST', '/api/v1/locations', { name: 'Quay of the other' })));
  await served('a reset through C, then a write through A', reset, [0, 1, 2], async (app) => {
    const [mine, writes, theirs, newer] = await Promise.all([
      nameOf(app, pier, student),
      writesOf(app, student),
      nameOf(app, others[0]!, other),
      nameOf(app, others[1]!, other),
    ]);
    return mine === 404 && writes === 0 && theirs === 'Pier of the other' && newer === 'Quay of the other';
  });
  for (const app of apps) assert.is(await nameOf(app, others[1]!, student), 404, 'the reset student reads the catalog');
});

test('npm run classroom -- reset empties the sandboxes kept in Redis; every instance notices', async () => {
  const env = { ...TEST_ENV, ...ENV, ACCOUNTS_FILE: join(dirs[0]!, 'accounts.json') };
  const reset = await runScript('scripts/classroom.ts', ['reset'], env);
  const done = Date.now();
  assert.is(reset.code, 0, reset.stderr);
  assert.match(reset.stdout, /^every sandbox reset: 2 write\(s\) dropped from the accounts' Redis$/m);
  await served('npm run classroom -- reset', done, [0, 1, 2], async (app) => (await writesOf(app, other)) === 0);
  for (const app of apps) for (const uuid of others) assert.is(await nameOf(app, uuid, other), 404);
});

let kept = '';

test('a restarted instance serves the sandboxes kept in Redis at once', async () => {
  kept = made(await caller(apps[0]!, student)('POST', '/api/v1/locations', { name: 'Pier across a restart' }));
  await apps[1]!.close();
  apps[1] = await startApp(ENV, dirs[1]);
  assert.is(await nameOf(apps[1]!, kept, student), 'Pier across a restart');
  assert.is(await nameOf(apps[1]!, kept), 404, 'anonymous');
  // Its numbering goes on after the others': a write through it is kept, and read through A.
  const next = made(await caller(apps[1]!, student)('POST', '/api/v1/locations', { name: 'Pier after the restart' }));
  await served(
    'a REST write through a restarted B',
    Date.now(),
    [0, 2],
    async (app) => (await nameOf(app, next, student)) !== 404,
  );
});

test('Redis stopped: a sandbox write or reset is a 503 naming Redis, reads go on; Redis back: writes are kept again', async () => {
  await redis.stop();
  try {
    const refused = await caller(apps[0]!, student)('POST', '/api/v1/locations', { name: 'Written during the outage' });
    assert.is(refused.status, 503, JSON.stringify(refused.body));
    assert.match(refused.headers.get('retry-after') ?? '', /^\d+$/);
    assert.equal(Object.keys(refused.body).sort(), ['code', 'message', 'method', 'status', 'timestamps', 'url']);
    assert.is(refused.body.code, 503);
    assert.match(String(refused.body.message), /Redis/);
    const notReset = await caller(apps[1]!, student)('DELETE', '/api/v1/sandbox');
    assert.is(notReset.status, 503);
    assert.match(String(notReset.body.message), /Redis/);
    for (const app of apps) assert.is(await nameOf(app, kept, student), 'Pier across a restart', 'reads go on');
  } finally {
    await redis.start();
  }
  let last = '';
  let after = '';
  for (const deadline = Date.now() + 15_000; !after;) {
    const answer = await caller(apps[0]!, student)('POST', '/api/v1/locations', { name: 'Written after the outage' });
    last = `${answer.status} ${JSON.stringify(answer.body)}`;
    if (answer.status === 201) after = String(answer.body.uuid);
    else if (Date.now() > deadline) assert.unreachable(`writes work again once Redis is back (last answer: ${last})`);
    else await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await served(
    'a REST write through A after the outage',
    Date.now(),
    [1, 2],
    async (app) => (await nameOf(app, after, student)) !== 404,
  );
  assert.is(await writesOf(apps[2]!, student), 3, 'the three acknowledged writes, not the refused one');
  const names = ((await read(apps[2]!, '/api/v1/locations?size=100', student)).body as Json[]).map((l) => l.name);
  assert.ok(names.includes('Written after the outage'));
  assert.not.ok(names.includes('Written during the outage'));
});

test('the Redis sandbox store: a drop never rewinds the numbering, and the mark moves on each append and drop', async () => {
  const client = new Redis(redis.url);
  const store = new RedisOverlayStore(client, client.duplicate(), {
    prefix: '{store-test}:',
    name: 'test log',
    writes: 'test writes',
  });
  const by = (uuid: string) => ({
    at: new Date().toISOString(),
    account: { uuid, username: uuid },
    request: 'POST',
    changes: [],
  });
  try {
    const marks = [await store.mark()];
    assert.equal(seqOf(await store.append(by('x'), 0)), { seq: 1 });
    assert.equal(seqOf(await store.append(by('y'), 1)), { seq: 2 });
    marks.push(await store.mark());
    await store.drop((write) => write.account.uuid === 'y');
    marks.push(await store.mark());
    assert.is(await store.end(), 2, 'the dropped last write keeps its number');
    assert.equal(
      (await store.since(0)).map((write) => write.seq),
      [1],
    );
    assert.equal(await store.append(by('x'), 1), { behind: [] });
    const appended = await store.append(by('x'), 2);
    assert.equal(seqOf(appended), { seq: 3 });
    assert.equal('mark' in appended && appended.mark, { before: marks.at(-1), after: await store.mark() });
    marks.push(await store.mark());
    assert.equal(seqOf(await store.appendAll([by('y'), by('z')], 3)), { seq: 5 }, 'two writes in one step');
    assert.equal(
      (await store.since(3)).map((write) => [write.seq, write.account.uuid]),
      [
        [4, 'y'],
        [5, 'z'],
      ],
    );
    assert.equal((seqOf(await store.appendAll([by('x'), by('x')], 3)) as { behind: unknown[] }).behind.length, 2);
    assert.is(await store.end(), 5, 'a batch behind appends nothing');
    marks.push(await store.mark());
    await store.drop(() => false);
    assert.is(await store.mark(), marks.at(-1), 'a drop of nothing changes nothing');
    assert.is(new Set(marks).size, marks.length, `every change moves the mark: ${marks.join(' | ')}`);
  } finally {
    store.close();
  }
});

test.after(async () => {
  console.log(`\nsandbox changes served by the other instances after (the target is 1 s):\n  ${measured.join('\n  ')}`);
  try {
    for (const app of apps) await app.close();
  } finally {
    await redis.stop();
  }
});
test.run();
