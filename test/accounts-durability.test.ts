import { once } from 'node:events';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { JsonFileAccountStore } from '../src/accounts/json-file-store.ts';
import { newUser, post } from './helpers/accounts-app.ts';
import { startApp, TEST_ENV, tempDir } from './helpers/http.ts';
import { listeningUrl, runToExit, startServer } from './helpers/spawn.ts';

const REGISTER = '/api/v1/auth/register';

interface StoredFile {
  accounts: { username: string }[];
}

async function storedUsernames(file: string): Promise<string[]> {
  return (JSON.parse(await readFile(file, 'utf8')) as StoredFile).accounts.map((a) => a.username);
}

test('200 concurrent registrations: all 201, all there after a restart', async () => {
  const dir = await tempDir();
  const first = await startApp({}, dir);
  const answers = await Promise.all(Array.from({ length: 200 }, (_, n) => post(first.url, REGISTER, newUser(`c${n}`))));
  await first.close();
  assert.equal(
    answers.map((a) => a.status),
    Array(200).fill(201),
  );
  const restarted = await startApp({}, dir);
  try {
    const usernames = new Set(await storedUsernames(restarted.file));
    assert.is(usernames.size, 200);
    for (let n = 0; n < 200; n++) assert.ok(usernames.has(`user_c${n}`), `user_c${n}`);
    const signIns = await Promise.all(
      Array.from({ length: 200 }, (_, n) =>
        post(restarted.url, '/api/v1/auth/authenticate', { username: `user_c${n}`, password: `password of c${n}` }),
      ),
    );
    assert.equal(
      signIns.map((a) => a.status),
      Array(200).fill(200),
    );
  } finally {
    await restarted.close();
  }
});

test('50 concurrent registrations of one username: exactly one 201, the rest 409', async () => {
  const app = await startApp();
  try {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, n) => post(app.url, REGISTER, newUser(`same${n}`, { username: 'the_one' }))),
    );
    const statuses = answers.map((a) => a.status).sort();
    assert.equal(statuses, [201, ...Array(49).fill(409)]);
    for (const answer of answers.filter((a) => a.status === 409))
      assert.match(String(answer.body.message), /^Username 'the_one' is already registered$/);
    assert.equal(await storedUsernames(app.file), ['the_one']);
  } finally {
    await app.close();
  }
});

test('SIGKILL during a registration burst: the file parses and holds every account that got a 201', async () => {
  const dir = await tempDir();
  const env = { ...TEST_ENV, LOG_LEVEL: 'info', ACCOUNTS_FILE: join(dir, 'accounts.json') };
  const server = startServer(env);
  const url = await listeningUrl(server);
  const created: string[] = [];
  let killed = false;
  const burst = Array.from({ length: 400 }, async (_, n) => {
    try {
      const answer = await post(url, REGISTER, newUser(`k${n}`));
      if (answer.status === 201) created.push(`user_k${n}`);
      // Killed once a good part of the burst is answered: the rest is in flight or queued.
      if (created.length === 40 && !killed) {
        killed = true;
        server.child.kill('SIGKILL');
      }
    } catch {
      // the connection died with the server: this registration was never confirmed
    }
  });
  await Promise.all(burst);
  if (server.child.exitCode === null && server.child.signalCode === null) await once(server.child, 'exit');
  assert.is(server.child.signalCode, 'SIGKILL');
  assert.ok(created.length >= 40 && created.length < 400, `${created.length} confirmed before the kill`);

  const stored = new Set(await storedUsernames(env.ACCOUNTS_FILE));
  for (const username of created) assert.ok(stored.has(username), `${username} got a 201 but is missing`);

  const restarted = startServer(env);
  try {
    const again = await listeningUrl(restarted);
    const signIns = await Promise.all(
      created.map((username) =>
        post(again, '/api/v1/auth/authenticate', { username, password: `password of ${username.slice(5)}` }),
      ),
    );
    assert.equal(
      signIns.map((a) => a.status),
      Array(created.length).fill(200),
    );
  } finally {
    restarted.child.kill('SIGTERM');
    await once(restarted.child, 'exit');
  }
});

test('a corrupt accounts file stops the boot with its name, and is left as it was', async () => {
  const file = join(await tempDir(), 'accounts.json');
  const content = '{"accounts": [{"uuid": "6f0c2e1a-';
  await writeFile(file, content, { mode: 0o600 });
  const { code, output } = await runToExit({ ...TEST_ENV, ACCOUNTS_FILE: file });
  assert.is(code, 1, output);
  assert.ok(output.includes(`cannot open the accounts: ${file}: line 1, column 24: unterminated string`), output);
  assert.not.match(output, /listening|at .*\.ts:\d+/);
  assert.is(await readFile(file, 'utf8'), content);
});

test('empty, misshapen, duplicated or unreadable files are refused with their name and left as they were', async () => {
  const dir = await tempDir();
  const account = (uuid: string, username: string) => ({
    uuid,
    username,
    email: `${username}@example.org`,
    first_name: 'A',
    last_name: 'B',
    role: 'BASIC',
    password_hash: `$scrypt$ln=10,r=8,p=1$${'A'.repeat(22)}$${'B'.repeat(43)}`,
    created_at: 'x',
    updated_at: 'x',
  });
  const cases = [
    { name: 'empty.json', content: '', problem: 'line 1, column 1: ' },
    {
      name: 'shape.json',
      content: '{"accounts": [{"username": "x"}]}',
      problem: "/accounts/0: must have required property 'uuid'",
    },
    {
      name: 'role.json',
      content: JSON.stringify({
        accounts: [{ ...account('6f0c2e1a-0000-4000-8000-000000000001', 'ana'), role: 'ROOT' }],
      }),
      problem: '/accounts/0/role: must be equal to one of the allowed values',
    },
    {
      name: 'twice.json',
      content: JSON.stringify({
        accounts: [
          account('6f0c2e1a-0000-4000-8000-000000000001', 'ana'),
          account('6f0c2e1a-0000-4000-8000-000000000002', 'ANA'),
        ],
      }),
      problem: '/accounts/1: username ana appears twice',
    },
  ];
  for (const { name, content, problem } of cases) {
    const file = join(dir, name);
    await writeFile(file, content, { mode: 0o600 });
    await JsonFileAccountStore.open(file).then(
      () => assert.unreachable(`${name} was accepted`),
      (error: Error) => assert.ok(error.message.startsWith(`${file}: ${problem}`), error.message),
    );
    assert.is(await readFile(file, 'utf8'), content, `${name} untouched`);
  }
  const folder = join(dir, 'a-folder.json');
  await mkdir(folder);
  await JsonFileAccountStore.open(folder).then(
    () => assert.unreachable('a folder was accepted'),
    (error: Error) => assert.is(error.message, `${folder}: cannot be read (EISDIR)`),
  );
  assert.equal(await readdir(folder), []);
});

test('a file corrupted while the server runs is never overwritten: writes fail, the file stays', async () => {
  const app = await startApp();
  try {
    assert.is((await post(app.url, REGISTER, newUser('before'))).status, 201);
    await writeFile(app.file, '{"accounts": [');
    const answer = await post(app.url, REGISTER, newUser('after'));
    assert.is(answer.status, 503);
    assert.is(answer.body.message, `${app.file}: line 1, column 15: expected ']'`);
    assert.is(answer.headers.get('retry-after'), '30');
    assert.is(await readFile(app.file, 'utf8'), '{"accounts": [');
  } finally {
    await app.close();
  }
});

test('the accounts folder removed while the server runs: a registration is a 503 naming the file, not a 500', async () => {
  const dir = await tempDir();
  const app = await startApp({}, dir);
  try {
    assert.is((await post(app.url, REGISTER, newUser('before'))).status, 201);
    await rm(dir, { recursive: true, force: true });
    const answer = await post(app.url, REGISTER, newUser('after'));
    assert.is(answer.status, 503, JSON.stringify(answer.body));
    assert.is(answer.body.message, `${app.file}: cannot be locked (ENOENT: its folder is missing)`);
    assert.is(answer.headers.get('retry-after'), '30');
  } finally {
    await app.close();
  }
});

test.run();
