import { readFile, stat } from 'node:fs/promises';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { get, newUser, post, readAnswer, registered, type Answer, type RunningApp } from './helpers/accounts-app.ts';
import { startApp } from './helpers/http.ts';
import { tokenWithRole } from './helpers/admin.ts';

const REGISTER = '/api/v1/auth/register';
const AUTHENTICATE = '/api/v1/auth/authenticate';
const DELETE = '/api/v1/auth/delete';

// Set up at the top level, not in test.before: uvu 0.5 reports a failing before hook as a pass.
const test = suite<{ app: RunningApp }>('accounts over HTTP', { app: await startApp() });
test.after(async ({ app }) => app.close());

/** The service's one error shape, with `status` and a message matching `message`. */
function assertError(answer: Answer, status: number, message: RegExp): void {
  assert.is(answer.status, status, JSON.stringify(answer.body));
  assert.equal(Object.keys(answer.body).sort(), ['code', 'message', 'method', 'status', 'timestamps', 'url']);
  assert.is(answer.body.code, status);
  assert.match(String(answer.body.message), message);
  assert.is(answer.headers.get('content-type'), 'application/json');
}

test('register answers 201 with a bearer token and stores only a scrypt hash, mode 0600', async ({ app }) => {
  const answer = await post(app.url, REGISTER, newUser('ana'));
  assert.is(answer.status, 201);
  // The same fields as a sign-in's answer, timestamps included (HawAPI clients read created_at there too).
  assert.equal(Object.keys(answer.body).sort(), [
    'created_at',
    'email',
    'expires_at',
    'role',
    'token',
    'token_type',
    'updated_at',
    'username',
  ]);
  assert.equal(
    { ...answer.body, token: undefined, expires_at: undefined, created_at: undefined, updated_at: undefined },
    {
      username: 'user_ana',
      email: 'userana@example.org',
      role: 'BASIC',
      token_type: 'Bearer',
      token: undefined,
      expires_at: undefined,
      created_at: undefined,
      updated_at: undefined,
    },
  );
  assert.is(answer.body.created_at, answer.body.updated_at);
  assert.ok(Math.abs(Date.parse(String(answer.body.created_at)) - Date.now()) < 60_000);
  assert.match(String(answer.body.token), /^[\w-]+\.[\w-]+\.[\w-]+$/);
  const expires = Date.parse(String(answer.body.expires_at));
  assert.ok(expires > Date.now() + 3500_000 && expires <= Date.now() + 3600_000, String(answer.body.expires_at));
  assert.is(answer.headers.get('cache-control'), 'no-store');
  const text = await readFile(app.file, 'utf8');
  assert.not.match(text, /password of ana/);
  const stored = (JSON.parse(text) as { accounts: Record<string, string>[] }).accounts.find(
    (a) => a.username === 'user_ana',
  )!;
  assert.match(stored.password_hash!, /^\$scrypt\$ln=10,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
  assert.is((await stat(app.file)).mode & 0o777, 0o600);
});

test('authenticate answers 200 with a token and the timestamps; username and email match case-insensitively', async ({
  app,
}) => {
  await registered(app.url, 'bea');
  const answer = await post(app.url, AUTHENTICATE, {
    username: 'USER_BEA',
    email: 'UserBea@Example.org',
    password: 'password of bea',
  });
  assert.is(answer.status, 200, JSON.stringify(answer.body));
  assert.equal(Object.keys(answer.body).sort(), [
    'created_at',
    'email',
    'expires_at',
    'role',
    'token',
    'token_type',
    'updated_at',
    'username',
  ]);
  assert.is(answer.body.username, 'user_bea');
  assert.is(answer.body.token_type, 'Bearer');
  assert.ok(!Number.isNaN(Date.parse(String(answer.body.created_at))));
  assert.is(answer.headers.get('cache-control'), 'no-store');
  const ping = await get(app.url, '/api/ping', String(answer.body.token));
  assert.is(ping.status, 200);
});

test('wrong password, unknown username and mismatched email all get the same 401', async ({ app }) => {
  await registered(app.url, 'cid');
  const attempts = [
    { username: 'user_cid', password: 'not the password' },
    { username: 'nobody_here', password: 'password of cid' },
    { username: 'user_cid', email: 'someone@example.org', password: 'password of cid' },
  ];
  const answers = await Promise.all(attempts.map((body) => post(app.url, AUTHENTICATE, body)));
  for (const answer of answers) {
    assertError(answer, 401, /^Invalid credentials$/);
    assert.is(answer.headers.get('www-authenticate'), 'Bearer');
  }
  const bodies = answers.map(({ body }) => ({ ...body, timestamps: undefined }));
  assert.equal(bodies[1], bodies[0]);
  assert.equal(bodies[2], bodies[0]);
});

test('every validation problem is named in one 400', async ({ app }) => {
  const answer = await post(app.url, REGISTER, {
    first_name: ' ',
    last_name: 'x'.repeat(51),
    username: 'a!',
    email: 'not-an-email',
    password: 'a!',
    role: 'ROOT',
    extra: 1,
  });
  assertError(answer, 400, /^Invalid request body: /);
  const message = String(answer.body.message);
  for (const part of [
    "unknown field 'extra'",
    'first_name must not be blank',
    'last_name must be 1–50 characters long',
    'username must be 3–30 characters long',
    "username may contain only letters, digits, '_', '.' and '-'",
    'email must be a valid email address',
    'password must be 8–128 characters long',
    'password must not be the username',
    'role must be one of BASIC, DEV, MAINTAINER, ADMIN',
  ]) {
    assert.ok(message.includes(part), `${part} in: ${message}`);
  }
});

test('missing fields, long values, wrong types and a password equal to the email are 400s', async ({ app }) => {
  const missing = await post(app.url, REGISTER, {});
  assertError(
    missing,
    400,
    /first_name is required; last_name is required; username is required; email is required; password is required$/,
  );
  const long = await post(app.url, REGISTER, newUser('long', { username: 'u'.repeat(31), password: 'p'.repeat(129) }));
  assertError(long, 400, /username must be 3–30 characters long; password must be 8–128 characters long$/);
  const typed = await post(app.url, REGISTER, newUser('typed', { first_name: 7 }));
  assertError(typed, 400, /first_name must be a string$/);
  const sameAsEmail = await post(app.url, REGISTER, newUser('same', { password: 'USERSAME@example.org' }));
  assertError(sameAsEmail, 400, /password must not be the email$/);
  const array = await post(app.url, REGISTER, '[1, 2]');
  assertError(array, 400, /the body must be a JSON object/);
  const credentials = await post(app.url, AUTHENTICATE, { username: 'x', password: 'y', remember: true });
  assertError(credentials, 400, /^Invalid request body: unknown field 'remember'$/);
  const noPassword = await post(app.url, DELETE, { username: 'x' });
  assertError(noPassword, 400, /^Invalid request body: password is required$/);
});

test('a taken username or email is a 409 naming which, case-insensitively', async ({ app }) => {
  await registered(app.url, 'dan');
  const username = await post(app.url, REGISTER, newUser('other1', { username: 'USER_DAN' }));
  assertError(username, 409, /^Username 'USER_DAN' is already registered$/);
  const email = await post(app.url, REGISTER, newUser('other2', { email: 'USERDAN@EXAMPLE.ORG' }));
  assertError(email, 409, /^Email 'USERDAN@EXAMPLE.ORG' is already registered$/);
  const both = await post(app.url, REGISTER, newUser('dan'));
  assertError(both, 409, /^Username 'user_dan' and email 'userdan@example.org' are already registered$/);
});

test('anything but application/json is a 415, over 16 KB a 413, malformed JSON a 400', async ({ app }) => {
  for (const path of [REGISTER, AUTHENTICATE, DELETE]) {
    const text = await fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: 'hello',
    });
    assertError(await readAnswer(text), 415, /^Content-Type must be application\/json \(got text\/plain\)$/);
  }
  const form = await fetch(`${app.url}${REGISTER}`, { method: 'POST', body: new URLSearchParams({ username: 'x' }) });
  assertError(await readAnswer(form), 415, /got application\/x-www-form-urlencoded/);
  const none = await fetch(`${app.url}${REGISTER}`, { method: 'POST' });
  assertError(await readAnswer(none), 415, /got none/);
  const big = await post(app.url, REGISTER, newUser('big', { first_name: 'x'.repeat(17 * 1024) }));
  assertError(big, 413, /^Request body is larger than 16 KB$/);
  const malformed = await post(app.url, REGISTER, '{"username": "x",');
  assertError(malformed, 400, /^Request body is not valid JSON: /);
  const scalar = await post(app.url, REGISTER, '"just a string"');
  assertError(scalar, 400, /^Request body is not valid JSON: /);
  const charset = await post(app.url, REGISTER, '{}', { 'Content-Type': 'application/json; charset=koi8-nope' });
  assertError(charset, 415, /^Content-Type charset must be utf-8 \(got koi8-nope\)$/);
  const utf8 = await post(app.url, REGISTER, JSON.stringify(newUser('utf8')), {
    'Content-Type': 'application/json; charset=UTF-8',
  });
  assert.is(utf8.status, 201);
});

test('delete answers 204, ends the account and its tokens, and frees the username and email', async ({ app }) => {
  const token = await registered(app.url, 'eve');
  assert.is((await get(app.url, '/api/ping', token)).status, 200);
  const wrong = await post(app.url, DELETE, { username: 'user_eve', password: 'not it at all' });
  assertError(wrong, 401, /^Invalid credentials$/);
  const otherEmail = await post(app.url, DELETE, {
    username: 'user_eve',
    email: 'x@example.org',
    password: 'password of eve',
  });
  assertError(otherEmail, 401, /^Invalid credentials$/);
  const deleted = await fetch(`${app.url}${DELETE}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'USER_EVE', password: 'password of eve' }),
  });
  assert.is(deleted.status, 204);
  assert.is(await deleted.text(), '');
  const onDisk = JSON.parse(await readFile(app.file, 'utf8')) as { accounts: { username: string }[] };
  assert.not.ok(onDisk.accounts.some((a) => a.username === 'user_eve'));
  assertError(
    await post(app.url, AUTHENTICATE, { username: 'user_eve', password: 'password of eve' }),
    401,
    /^Invalid credentials$/,
  );
  const stale = await get(app.url, '/api/ping', token);
  assertError(stale, 401, /^Bearer token's account no longer exists$/);
  assert.is(stale.headers.get('www-authenticate'), 'Bearer error="invalid_token"');
  const again = await registered(app.url, 'eve');
  assert.is((await get(app.url, '/api/ping', again)).status, 200);
  assertError(await get(app.url, '/api/ping', token), 401, /no longer exists/);
});

test('a role other than BASIC needs an ADMIN token: 401 without one, 403 with another role', async ({ app }) => {
  const anonymous = await post(app.url, REGISTER, newUser('dev1', { role: 'DEV' }));
  assertError(anonymous, 401, /^Registering a DEV account needs an ADMIN's bearer token$/);
  assert.is(anonymous.headers.get('www-authenticate'), 'Bearer');
  assert.is((await post(app.url, REGISTER, newUser('basic1', { role: 'BASIC' }))).status, 201);
  const basic = await registered(app.url, 'basic2');
  assertError(
    await post(app.url, REGISTER, newUser('dev2', { role: 'DEV' }), { Authorization: `Bearer ${basic}` }),
    403,
    /this token is a BASIC's$/,
  );
  const maintainer = await tokenWithRole(app, 'MAINTAINER', 'maint1');
  assertError(
    await post(app.url, REGISTER, newUser('admin2', { role: 'ADMIN' }), { Authorization: `Bearer ${maintainer}` }),
    403,
    /^Registering an ADMIN account needs an ADMIN's bearer token; this token is a MAINTAINER's$/,
  );
  assertError(
    await post(app.url, REGISTER, newUser('admin3', { role: 'ADMIN' })),
    401,
    /^Registering an ADMIN account needs an ADMIN's bearer token$/,
  );
  const admin = await tokenWithRole(app, 'ADMIN', 'admin1');
  for (const role of ['DEV', 'MAINTAINER', 'ADMIN']) {
    const answer = await post(app.url, REGISTER, newUser(`made_${role}`, { role }), {
      Authorization: `Bearer ${admin}`,
    });
    assert.is(answer.status, 201, JSON.stringify(answer.body));
    assert.is(answer.body.role, role);
  }
  const madeAdmin = await post(app.url, AUTHENTICATE, {
    username: 'user_made_ADMIN',
    password: 'password of made_ADMIN',
  });
  assert.is(madeAdmin.body.role, 'ADMIN');
});

test('auth routes answer only POST: other methods are 405 in the error shape', async ({ app }) => {
  const answer = await get(app.url, REGISTER);
  assertError(answer, 405, /^Method GET is not allowed on \/api\/v1\/auth\/register; allowed: POST$/);
});

test.run();
