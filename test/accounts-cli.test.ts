import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { get, newUser, post, registered } from './helpers/accounts-app.ts';
import { startApp, TEST_ENV } from './helpers/http.ts';
import { runScript } from './helpers/spawn.ts';

/** Runs `npm run accounts -- ...args` (the script itself, through tsx) to completion. */
const cli = (args: string[], env: Record<string, string>) =>
  runScript('scripts/accounts.ts', args, { ...TEST_ENV, ACCOUNT_PASSWORD: '', ...env });

test('create, list and delete from the command line while the server runs on the same file', async () => {
  const app = await startApp();
  const env = { ACCOUNTS_FILE: app.file };
  try {
    await registered(app.url, 'web'); // written by the server first, so the CLI must keep it
    const created = await cli(['create', '--username', 'root', '--email', 'root@example.org', '--role', 'ADMIN'], {
      ...env,
      ACCOUNT_PASSWORD: 'the root password',
    });
    assert.is(created.code, 0, created.stderr);
    assert.match(created.stdout, /^created ADMIN account 'root' \([0-9a-f-]{36}\) in /);

    const signIn = await post(app.url, '/api/v1/auth/authenticate', {
      username: 'root',
      password: 'the root password',
    });
    assert.is(signIn.status, 200, JSON.stringify(signIn.body));
    assert.is(signIn.body.role, 'ADMIN');
    const admin = String(signIn.body.token);
    const dev = await post(app.url, '/api/v1/auth/register', newUser('dev', { role: 'DEV' }), {
      Authorization: `Bearer ${admin}`,
    });
    assert.is(dev.status, 201);

    const listed = await cli(['list'], env);
    assert.is(listed.code, 0, listed.stderr);
    const rows = listed.stdout.trim().split('\n');
    assert.match(rows[0]!, /^USERNAME +EMAIL +ROLE +CREATED_AT +UUID$/);
    assert.equal(
      rows.slice(1).map((row) => row.split(/ +/).slice(0, 3).join(' ')),
      ['user_web userweb@example.org BASIC', 'root root@example.org ADMIN', 'user_dev userdev@example.org DEV'],
    );

    const deleted = await cli(['delete', '--username', 'ROOT'], env);
    assert.is(deleted.code, 0, deleted.stderr);
    assert.match(deleted.stdout, /^deleted account 'root'/);
    // The server sees the file change without a file-system call per request: by a poll every
    // 500 ms, so within a second on an idle machine; five are allowed here for a loaded one.
    let stale = await get(app.url, '/api/ping', admin);
    for (const deadline = Date.now() + 5000; stale.status !== 401 && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      stale = await get(app.url, '/api/ping', admin);
    }
    assert.is(stale.status, 401);
    assert.is(stale.headers.get('www-authenticate'), 'Bearer error="invalid_token"');
    assert.is(
      (await post(app.url, '/api/v1/auth/authenticate', { username: 'user_web', password: 'password of web' })).status,
      200,
    );
  } finally {
    await app.close();
  }
});

test('a role changed from the command line takes effect in the running server without a restart', async () => {
  const app = await startApp({ RATE_LIMIT: 'on', RATE_LIMIT_BASIC: '100', RATE_LIMIT_DEV: '900' });
  try {
    const token = await registered(app.url, 'riser');
    const policy = async () => (await get(app.url, '/api/v1/endpoints', token)).headers.get('ratelimit-policy');
    assert.is(await policy(), '"basic";q=100;w=60');
    await policy(); // the fast path knows the URL from here on
    const raised = await cli(['role', '--username', 'user_riser', '--role', 'DEV'], { ACCOUNTS_FILE: app.file });
    assert.is(raised.code, 0, raised.stderr);
    assert.match(raised.stdout, /^account 'user_riser' is now DEV/);
    let seen = await policy();
    for (const deadline = Date.now() + 5000; seen !== '"dev";q=900;w=60' && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen = await policy();
    }
    assert.is(seen, '"dev";q=900;w=60');
    const wrongRole = await cli(['role', '--username', 'user_riser', '--role', 'KING'], { ACCOUNTS_FILE: app.file });
    assert.equal(
      [wrongRole.code, wrongRole.stderr.trim()],
      [1, "role must be one of BASIC, DEV, MAINTAINER, ADMIN, got 'KING'"],
    );
  } finally {
    await app.close();
  }
});

test('the command line refuses bad input with a message and exit code 1', async () => {
  const app = await startApp();
  const env = { ACCOUNTS_FILE: app.file };
  try {
    await registered(app.url, 'taken');
    const duplicate = await cli(['create', '--username', 'USER_TAKEN', '--email', 'new@example.org'], {
      ...env,
      ACCOUNT_PASSWORD: 'a fine password',
    });
    assert.equal(
      [duplicate.code, duplicate.stderr.trim()],
      [1, "cannot create the account: Username 'USER_TAKEN' is already registered"],
    );
    const invalid = await cli(['create', '--username', 'x', '--email', 'x@example.org', '--role', 'root'], {
      ...env,
      ACCOUNT_PASSWORD: 'short',
    });
    assert.is(invalid.code, 1);
    assert.is(
      invalid.stderr.trim(),
      'cannot create the account: Invalid request body: username must be 3–30 characters long; password must be 8–128 characters long; role must be one of BASIC, DEV, MAINTAINER, ADMIN',
    );
    const noPassword = await cli(['create', '--username', 'someone', '--email', 'someone@example.org'], env);
    assert.equal(
      [noPassword.code, noPassword.stderr.trim()],
      [1, 'no terminal to prompt for the password: set ACCOUNT_PASSWORD'],
    );
    const missing = await cli(['delete', '--username', 'ghost'], env);
    assert.equal([missing.code, missing.stderr.trim()], [1, `no account named 'ghost' in ${app.file}`]);
    const unknown = await cli(['rename'], env);
    assert.is(unknown.code, 1);
    assert.match(unknown.stderr, /^usage:\n  npm run accounts -- create/);
    assert.is((await cli(['list'], env)).stdout.trim().split('\n').length, 2, 'nothing was added');
  } finally {
    await app.close();
  }
});

test.run();
