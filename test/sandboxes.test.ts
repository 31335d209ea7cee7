import { readFile } from 'node:fs/promises';
import { get } from 'node:http';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registered } from './helpers/accounts-app.ts';
import { tokenWithRole } from './helpers/admin.ts';
import { caller, type Json } from './helpers/curator-calls.ts';
import { startApp, tempDir, type TestServer } from './helpers/http.ts';
import { ROOT } from './helpers/spawn.ts';

const CLASSROOM = { CLASSROOM: 'on' };
const STUDENTS = 30;

/** `GET path` as `token` (none: anonymous): status and body. */
async function read(app: TestServer, path: string, token?: string) {
  const response = await app.get(path, token ? { Authorization: `Bearer ${token}` } : {});
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as unknown) : {} };
}

/** The status of a conditional GET (node:http: fetch would add `Cache-Control: no-cache` to it). */
function revalidated(app: TestServer, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    get(app.url + path, { headers }, (response) => {
      response.resume();
      resolve(response.statusCode!);
    }).on('error', reject);
  });
}

/** Creates a location in `token`'s sandbox, by REST or GraphQL; resolves with its uuid. */
async function created(app: TestServer, token: string, name: string, graphql: boolean): Promise<string> {
  if (!graphql) {
    const made = await caller(app, token)('POST', '/api/v1/locations', { name });
    assert.is(made.status, 201, JSON.stringify(made.body));
    return String(made.body.uuid);
  }
  const query = 'mutation ($name: String!) { create_location(input: { name: $name }) { uuid } }';
  const made = await caller(app, token)('POST', '/api/graphql', { query, variables: { name } });
  assert.is(made.status, 200, JSON.stringify(made.body));
  return String(((made.body.data as Json).create_location as Json).uuid);
}

const names = (body: unknown) => (body as Json[]).map((location) => String(location.name));

test('30 students write at once (REST and GraphQL): each reads its own changes, everyone else the catalog; reset; restart', async () => {
  const dir = await tempDir();
  let app = await startApp(CLASSROOM, dir);
  try {
    const tokens = await Promise.all(Array.from({ length: STUDENTS }, (_, n) => registered(app.url, `s${n}`)));
    const before = await read(app, '/api/v1/locations?size=100');
    const count = (before.body as Json[]).length;
    // Half of them by REST, half by GraphQL mutation.
    const uuids = await Promise.all(tokens.map((token, n) => created(app, token, `Pier of student ${n}`, n % 2 === 1)));
    await Promise.all(
      tokens.map(async (token, n) => {
        const own = await read(app, '/api/v1/locations?size=100', token);
        assert.is((own.body as Json[]).length, count + 1);
        assert.ok(names(own.body).includes(`Pier of student ${n}`));
        assert.is(names(own.body).filter((name) => name.startsWith('Pier of student')).length, 1);
        assert.is(own.headers.get('Cache-Control'), 'private, no-cache');
        const mine = await read(app, `/api/v1/locations/${uuids[n]}`, token);
        assert.is(mine.status, 200);
        const theirs = await read(app, `/api/v1/locations/${uuids[(n + 1) % STUDENTS]}`, token);
        assert.is(theirs.status, 404);
      }),
    );
    // A change, then a delete, in one's own sandbox.
    const student = caller(app, tokens[0]!);
    const changed = await student('PATCH', `/api/v1/locations/${uuids[0]}`, { name: 'Renamed pier' });
    assert.is(changed.status, 200, JSON.stringify(changed.body));
    assert.equal((await read(app, `/api/v1/locations/${uuids[0]}`, tokens[0])).body, changed.body);
    const shared = (before.body as Json[])[0]!;
    assert.is((await student('DELETE', `/api/v1/locations/${String(shared.uuid)}`)).status, 204);
    assert.is((await read(app, `/api/v1/locations/${String(shared.uuid)}`, tokens[0])).status, 404);
    assert.is((await read(app, `/api/v1/locations/${String(shared.uuid)}`, tokens[1])).status, 200);
    // Everyone else: the catalog as it was.
    assert.equal((await read(app, '/api/v1/locations?size=100')).body, before.body);
    const listed = await student('GET', '/api/v1/sandbox');
    assert.is(listed.status, 200);
    assert.is(listed.body.writes, 3);
    assert.match(String((listed.body.changes as string[])[1]), `added location '${uuids[0]}'`);
    assert.match((listed.body.changes as string[]).join('\n'), `removed location '${String(shared.uuid)}'`);

    // Sandboxes survive a restart.
    await app.close();
    app = await startApp(CLASSROOM, dir);
    const kept = await read(app, `/api/v1/locations/${uuids[0]}`, tokens[0]);
    assert.is(kept.status, 200);
    assert.is((kept.body as Json).name, 'Renamed pier');
    assert.is((await read(app, `/api/v1/locations/${uuids[0]}`, tokens[1])).status, 404);

    // Reset: the student reads the catalog again; the others keep theirs.
    assert.is((await caller(app, tokens[0]!)('DELETE', '/api/v1/sandbox')).status, 204);
    const catalog = (await read(app, '/api/v1/locations?size=100')).body;
    assert.is((catalog as Json[]).length, count);
    assert.equal((await read(app, '/api/v1/locations?size=100', tokens[0])).body, catalog);
    assert.equal((await caller(app, tokens[0]!)('GET', '/api/v1/sandbox')).body.writes, 0);
    assert.is((await read(app, `/api/v1/locations/${uuids[1]}`, tokens[1])).status, 200);
    // An ADMIN resets every one; a student may not.
    assert.is((await caller(app, tokens[1]!)('DELETE', '/api/v1/sandboxes')).status, 403);
    const admin = await tokenWithRole(app, 'ADMIN', 'teacher');
    assert.is((await caller(app, admin)('DELETE', '/api/v1/sandboxes')).status, 204);
    assert.is((await read(app, `/api/v1/locations/${uuids[1]}`, tokens[1])).status, 404);
    const file = await readFile(join(dir, 'sandboxes.json'), 'utf8');
    // What is left: the header, and each student's reset (which its change feed shows), no write.
    const left = file
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => JSON.parse(line) as Json);
    assert.ok(
      left.every(
        (write) => (write.mark as Json | undefined)?.reset === 'reset' && (write.changes as unknown[]).length === 0,
      ),
    );
    assert.is(new Set(left.map((write) => (write.account as Json).uuid)).size, left.length, 'one reset each');
  } finally {
    await app.close();
  }
});

test('MAINTAINER writes are shared; anonymous writes are a 401 saying how to register; outside classroom mode BASIC is 403', async () => {
  const app = await startApp(CLASSROOM);
  try {
    const anonymous = await fetch(`${app.url}/api/v1/locations`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Pier' }),
    });
    assert.is(anonymous.status, 401);
    const message = String(((await anonymous.json()) as Json).message);
    assert.match(message, `curl -s ${app.url}/api/v1/auth/register`, message);
    const maintainer = await tokenWithRole(app, 'MAINTAINER', 'curator');
    const made = await caller(app, maintainer)('POST', '/api/v1/locations', { name: 'Shared pier' });
    assert.is(made.status, 201);
    assert.is((await read(app, `/api/v1/locations/${String(made.body.uuid)}`)).status, 200);
    const student = await registered(app.url, 'reader');
    assert.is((await read(app, `/api/v1/locations/${String(made.body.uuid)}`, student)).status, 200);
  } finally {
    await app.close();
  }
  const plain = await startApp();
  try {
    const token = await registered(plain.url, 'basic');
    assert.is((await caller(plain, token)('POST', '/api/v1/locations', { name: 'Pier' })).status, 403);
    assert.is((await plain.get('/api/v1/sandbox')).status, 404);
  } finally {
    await plain.close();
  }
});

test("the fast path never gives a student's sandboxed answer to anyone else, nor the shared one to the student", async () => {
  const app = await startApp(CLASSROOM);
  try {
    const [student, other] = [await registered(app.url, 'fast1'), await registered(app.url, 'fast2')];
    const first = ((await read(app, '/api/v1/locations?size=100')).body as Json[])[0]!;
    const path = `/api/v1/locations/${String(first.uuid)}`;
    // Read enough times by everyone for the fast path to know the URL.
    for (let n = 0; n < 3; n++) for (const token of [undefined, student, other]) await read(app, path, token);
    const patched = await caller(app, student)('PATCH', path, { name: 'Only in my sandbox' });
    assert.is(patched.status, 200);
    for (let n = 0; n < 5; n++) {
      assert.is(((await read(app, path, student)).body as Json).name, 'Only in my sandbox');
      assert.is(((await read(app, path)).body as Json).name, first.name);
      assert.is(((await read(app, path, other)).body as Json).name, first.name);
    }
    // GraphQL by GET: the same URL answers each its own, the student's privately.
    const query = `/api/graphql?query=${encodeURIComponent(`{ location(uuid: "${String(first.uuid)}") { name } }`)}`;
    for (let n = 0; n < 3; n++) {
      const own = await read(app, query, student);
      assert.equal((own.body as Json).data, { location: { name: 'Only in my sandbox' } });
      assert.is(own.headers.get('Cache-Control'), 'private, no-cache');
      // Each names the data version it read: the student's names its sandbox.
      assert.is(((own.body as Json).extensions as Json).catalog_version, own.headers.get('Catalog-Version'));
      const shared = await read(app, query);
      assert.equal((shared.body as Json).data, { location: { name: first.name } });
      assert.is.not(((shared.body as Json).extensions as Json).catalog_version, own.headers.get('Catalog-Version'));
    }
    // ETags: the student's If-None-Match of the shared answer is not its answer, and its own is a 304 for it alone.
    const shared = await read(app, path);
    const own = await read(app, path, student);
    assert.is.not(own.headers.get('ETag'), shared.headers.get('ETag'));
    const tag = own.headers.get('ETag')!;
    assert.is(await revalidated(app, path, { Authorization: `Bearer ${student}`, 'If-None-Match': tag }), 304);
    assert.is(await revalidated(app, path, { 'If-None-Match': tag }), 200);
    // Nor a 404 of a record deleted in a sandbox, however often the student asks.
    assert.is((await caller(app, student)('DELETE', path)).status, 204);
    for (let n = 0; n < 3; n++) assert.is((await read(app, path, student)).status, 404);
    for (const token of [undefined, other]) assert.is((await read(app, path, token)).status, 200);
  } finally {
    await app.close();
  }
});

test('each bound is a 409 naming it and how to reset, and nothing changes', async () => {
  const app = await startApp({ ...CLASSROOM, SANDBOX_WRITES: '2', SANDBOX_MB: '1' });
  try {
    const tokens = await Promise.all([1, 2, 3, 4, 5].map((n) => registered(app.url, `bound${n}`)));
    const post = (token: string, name: string) => caller(app, token)('POST', '/api/v1/locations', { name });
    assert.is((await post(tokens[0]!, 'one')).status, 201);
    assert.is((await post(tokens[0]!, 'two')).status, 201);
    const full = await post(tokens[0]!, 'three');
    assert.is(full.status, 409);
    assert.match(String(full.body.message), 'SANDBOX_WRITES');
    assert.match(String(full.body.message), 'DELETE /api/v1/sandbox');
    assert.is((await caller(app, tokens[0]!)('GET', '/api/v1/sandbox')).body.writes, 2);
    // 1 MB holds the caches of three sandboxes (256 KiB each) and their writes, not a fourth.
    assert.is((await post(tokens[1]!, 'b')).status, 201);
    assert.is((await post(tokens[2]!, 'c')).status, 201);
    const memory = await post(tokens[3]!, 'd');
    assert.is(memory.status, 409);
    assert.match(String(memory.body.message), 'SANDBOX_MB');
    assert.is((await caller(app, tokens[3]!)('GET', '/api/v1/sandbox')).body.writes, 0);
    assert.is((await caller(app, tokens[0]!)('DELETE', '/api/v1/sandbox')).status, 204);
    assert.is((await post(tokens[3]!, 'd')).status, 201);
  } finally {
    await app.close();
  }
});

test('a sandbox unused for SANDBOX_TTL is dropped', async () => {
  const app = await startApp({ ...CLASSROOM, SANDBOX_TTL: '1' });
  try {
    const token = await registered(app.url, 'idle');
    const made = await caller(app, token)('POST', '/api/v1/locations', { name: 'Soon gone' });
    assert.is(made.status, 201);
    const path = `/api/v1/locations/${String(made.body.uuid)}`;
    // The sweep runs every second; listing the sandbox is no use of it, so it does not keep it.
    for (const deadline = Date.now() + 10_000; ;) {
      if ((await caller(app, token)('GET', '/api/v1/sandbox')).body.writes === 0) break;
      if (Date.now() > deadline) throw new Error('the idle sandbox was never dropped');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    assert.is((await read(app, path, token)).status, 404);
  } finally {
    await app.close();
  }
});

test('npm run classroom -- reset empties every sandbox; a running server notices', async () => {
  const app = await startApp(CLASSROOM);
  try {
    const token = await registered(app.url, 'cli');
    const made = await caller(app, token)('POST', '/api/v1/locations', { name: 'Reset from the terminal' });
    const path = `/api/v1/locations/${String(made.body.uuid)}`;
    assert.is((await read(app, path, token)).status, 200);
    const reset = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/classroom.ts', 'reset'], {
      cwd: ROOT,
      env: { ...process.env, ACCOUNTS_FILE: app.file },
      encoding: 'utf8',
    });
    assert.is(reset.status, 0, reset.stderr);
    assert.match(reset.stdout, 'every sandbox reset: 1 write(s) dropped');
    for (const deadline = Date.now() + 10_000; (await read(app, path, token)).status !== 404;) {
      if (Date.now() > deadline) throw new Error('the server never noticed the reset');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await app.close();
  }
});

test.run();
