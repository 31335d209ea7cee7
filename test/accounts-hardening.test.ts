import crypto from 'node:crypto';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hashPassword, scryptParams } from '../src/accounts/passwords.ts';
import { newUser, post, registered } from './helpers/accounts-app.ts';
import { startInProcess } from './helpers/in-process.ts';
import { startApp, tempDir, TEST_ENV } from './helpers/http.ts';
import { listeningUrl, runToExit, startServer } from './helpers/spawn.ts';

const SIGN_IN = '/api/v1/auth/authenticate';

test('a read with a token is not held up by sign-ins hashing: it is answered before most of them', async () => {
  // A real cost, so that twelve sign-ins keep the hashing threads busy for a while.
  const app = await startApp({ SCRYPT_N: '32768', HASH_QUEUE: '64' });
  try {
    await registered(app.url, 'busy');
    const token = await registered(app.url, 'reader');
    let signedIn = 0;
    const signIns = Array.from({ length: 12 }, () =>
      post(app.url, SIGN_IN, { username: 'user_busy', password: 'password of busy' }).then((answer) => {
        assert.is(answer.status, 200);
        signedIn++;
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    const read = await fetch(`${app.url}/api/v1/actors?size=1`, { headers: { Authorization: `Bearer ${token}` } });
    const doneWhenRead = signedIn;
    assert.is(read.status, 200);
    await Promise.all(signIns);
    assert.ok(doneWhenRead < 6, `the read waited for ${doneWhenRead} of 12 sign-ins`);
  } finally {
    await app.close();
  }
});

test('beyond the hashes running and waiting, a sign-in is a 503 with Retry-After in the error shape', async () => {
  const app = await startApp({ SCRYPT_N: '16384', HASH_CONCURRENCY: '1', HASH_QUEUE: '2' });
  try {
    await registered(app.url, 'queue');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        post(app.url, SIGN_IN, { username: 'user_queue', password: 'password of queue' }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    assert.ok(statuses.filter((s) => s === 200).length >= 3, `some sign-ins went through: ${statuses}`);
    const refused = answers.filter((a) => a.status === 503);
    assert.ok(refused.length >= 1, `some sign-ins were refused: ${statuses}`);
    for (const answer of refused) {
      assert.match(answer.headers.get('retry-after') ?? '', /^\d+$/);
      assert.is(answer.headers.get('content-type'), 'application/json');
      assert.match(
        String(answer.body.message),
        /^Too many sign-ins in progress \(1 hashing, 2 waiting\); retry in \d+ s$/,
      );
    }
    await app.close();
    assert.equal(
      app.warnings.filter((line) => !line.startsWith('SCRYPT_N=')),
      [],
      'a full queue is not a server error',
    );
  } finally {
    await app.close();
  }
});

/** The scrypt costs (N) computed while `run` runs, seen by wrapping Node's scrypt. */
async function scryptCosts(run: () => Promise<unknown>): Promise<number[]> {
  const original = crypto.scrypt;
  const costs: number[] = [];
  crypto.scrypt = ((
    password: crypto.BinaryLike,
    salt: crypto.BinaryLike,
    length: number,
    options: crypto.ScryptOptions,
    done: (error: Error | null, key: Buffer) => void,
  ) => {
    costs.push(options.N ?? options.cost ?? 0);
    return original(password, salt, length, options, done);
  }) as typeof crypto.scrypt;
  syncBuiltinESMExports();
  try {
    await run();
  } finally {
    crypto.scrypt = original;
    syncBuiltinESMExports();
  }
  return costs;
}

test('after SCRYPT_N is raised, an unknown user costs what an old account costs, and a good sign-in re-hashes', async () => {
  const dir = await tempDir();
  const old = await hashPassword('password of old', scryptParams(1024));
  const account = {
    uuid: crypto.randomUUID(),
    username: 'old_timer',
    email: 'old@example.org',
    first_name: 'Old',
    last_name: 'Timer',
    role: 'BASIC',
    password_hash: old,
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
  };
  await writeFile(join(dir, 'accounts.json'), JSON.stringify({ accounts: [account] }), { mode: 0o600 });
  // In the test's process: the costs are seen by wrapping its crypto.scrypt.
  const app = await startInProcess({ SCRYPT_N: '4096' }, dir);
  try {
    const unknown = await scryptCosts(() =>
      post(app.url, SIGN_IN, { username: 'nobody_here', password: 'a wrong password' }),
    );
    const wrong = await scryptCosts(() =>
      post(app.url, SIGN_IN, { username: 'old_timer', password: 'a wrong password' }),
    );
    assert.ok(unknown.includes(4096), `unknown user: ${unknown}`);
    assert.ok(wrong.includes(4096), `old account, wrong password: ${wrong}`);
    assert.is(Math.max(...wrong), Math.max(...unknown), 'the costliest hash of each is the same');
    assert.match(
      (JSON.parse(await readFile(app.file, 'utf8')) as { accounts: { password_hash: string }[] }).accounts[0]!
        .password_hash,
      /^\$scrypt\$ln=10,/,
      'a wrong password re-hashes nothing',
    );
    const good = await post(app.url, SIGN_IN, { username: 'old_timer', password: 'password of old' });
    assert.is(good.status, 200);
    const stored = (
      JSON.parse(await readFile(app.file, 'utf8')) as { accounts: { password_hash: string; updated_at: string }[] }
    ).accounts[0]!;
    assert.match(stored.password_hash, /^\$scrypt\$ln=12,r=8,p=1\$/, 're-hashed at the current cost');
    assert.is(
      (await post(app.url, SIGN_IN, { username: 'old_timer', password: 'password of old' })).status,
      200,
      'the new hash verifies',
    );
    const current = await scryptCosts(() =>
      post(app.url, SIGN_IN, { username: 'old_timer', password: 'a wrong password' }),
    );
    assert.equal(current, [4096], 'a current account costs one hash at the current cost');
  } finally {
    await app.close();
  }
});

test('an accounts file and a JWT secret readable by others are tightened to 0600 at boot, with a warning each', async () => {
  const dir = await tempDir();
  const file = join(dir, 'accounts.json');
  await writeFile(file, JSON.stringify({ accounts: [] }));
  await writeFile(join(dir, 'jwt-secret'), `${crypto.randomBytes(32).toString('base64url')}\n`);
  await chmod(file, 0o644);
  await chmod(join(dir, 'jwt-secret'), 0o640);
  const server = startServer({ ...TEST_ENV, LOG_LEVEL: 'info', ACCOUNTS_FILE: file });
  try {
    await listeningUrl(server);
    assert.is((await stat(file)).mode & 0o777, 0o600);
    assert.is((await stat(join(dir, 'jwt-secret'))).mode & 0o777, 0o600);
    assert.match(server.output(), new RegExp(`${file} was readable by others \\(mode 644\\); tightened it to 600`));
    assert.match(server.output(), /jwt-secret was readable by others \(mode 640\); tightened it to 600/);
  } finally {
    server.child.kill('SIGTERM');
  }
});

test('an accounts location that cannot be created stops the boot at once, naming the path', async () => {
  const dir = await tempDir();
  await writeFile(join(dir, 'plain-file'), 'not a folder');
  for (const file of [
    '/proc/self/x/accounts.json',
    '/proc/1/nothing/deeper/accounts.json',
    join(dir, 'plain-file', 'accounts.json'),
  ]) {
    const { code, output } = await runToExit({ ...TEST_ENV, ACCOUNTS_FILE: file });
    assert.is(code, 1, file);
    assert.match(output, /^cannot open the accounts: /m, file);
    assert.ok(output.includes(file), `${file}: ${output}`);
  }
});

test('registering answers exactly application/json, as signing in does', async () => {
  const app = await startApp();
  try {
    await mkdir(join(app.file, '..'), { recursive: true });
    const created = await post(app.url, '/api/v1/auth/register', newUser('typed'));
    assert.is(created.headers.get('content-type'), 'application/json');
    const signedIn = await post(app.url, SIGN_IN, { username: 'user_typed', password: 'password of typed' });
    assert.is(signedIn.headers.get('content-type'), 'application/json');
    assert.is(created.body.created_at, signedIn.body.created_at);
  } finally {
    await app.close();
  }
});

test.run();
