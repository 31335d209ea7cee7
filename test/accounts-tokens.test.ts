import { readFile, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { SignJWT } from 'jose';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TOKEN_AUDIENCE, TOKEN_ISSUER, TokenRejected, Tokens } from '../src/accounts/tokens.ts';
import { get, newUser, post, readAnswer, registered, type Answer, type RunningApp } from './helpers/accounts-app.ts';
import { startApp } from './helpers/http.ts';
import { tokenWithRole } from './helpers/admin.ts';

const SECRET = 'a test secret of at least thirty-two bytes';

// Set up at the top level, not in test.before: uvu 0.5 reports a failing before hook as a pass.
const test = suite<{ app: RunningApp }>('bearer tokens', { app: await startApp({ JWT_SECRET: SECRET }) });
test.after(async ({ app }) => app.close());

function assertInvalidToken(answer: Answer, message: RegExp): void {
  assert.is(answer.status, 401, JSON.stringify(answer.body));
  assert.is(answer.headers.get('www-authenticate'), 'Bearer error="invalid_token"');
  assert.is(answer.body.code, 401);
  assert.match(String(answer.body.message), message);
}

const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

/** A token with the claims of `token` (changed by `changes`), signed with `key`. */
function resign(token: string, key: string, changes: Record<string, unknown> = {}): Promise<string> {
  const { iat, exp, ...claims } = { ...claimsOf(token), ...changes } as Record<string, unknown> & {
    iat: number;
    exp: number;
  };
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(key));
}

test('a valid token identifies the caller on any route; no token is anonymous', async ({ app }) => {
  const token = await registered(app.url, 'tina');
  assert.is((await get(app.url, '/api/v1/actors', token)).status, 200);
  assert.is((await get(app.url, '/api/v1/actors')).status, 200);
  const claims = claimsOf(token);
  assert.equal(Object.keys(claims).sort(), ['aud', 'exp', 'iat', 'iss', 'jti', 'role', 'sub', 'username']);
  assert.equal(
    [claims.iss, claims.aud, claims.username, claims.role, claims.exp],
    [TOKEN_ISSUER, TOKEN_AUDIENCE, 'user_tina', 'BASIC', Number(claims.iat) + 3600],
  );
});

test('a broken token is a 401 invalid_token even on a GET of public data', async ({ app }) => {
  assertInvalidToken(await get(app.url, '/api/v1/actors', 'not-a-jwt'), /^Bearer token is invalid$/);
  const basic = await fetch(`${app.url}/api/v1/actors`, { headers: { Authorization: 'Basic dXNlcjpwYXNz' } });
  assertInvalidToken(await readAnswer(basic), /^Authorization header must be 'Bearer <token>'$/);
});

test('a tampered token is refused: changed claims without a new signature', async ({ app }) => {
  const token = await registered(app.url, 'tom');
  const [header, , signature] = token.split('.');
  const promoted = `${header}.${part({ ...claimsOf(token), role: 'ADMIN' })}.${signature}`;
  assertInvalidToken(await get(app.url, '/api/ping', promoted), /^Bearer token is invalid$/);
  const flipped = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
  assertInvalidToken(await get(app.url, '/api/ping', flipped), /^Bearer token is invalid$/);
  assertInvalidToken(
    await post(app.url, '/api/v1/auth/register', newUser('tom2', { role: 'DEV' }), {
      Authorization: `Bearer ${promoted}`,
    }),
    /invalid/,
  );
});

test('alg none, another secret, another issuer or audience: all refused', async ({ app }) => {
  const token = await registered(app.url, 'uma');
  const unsigned = `${part({ alg: 'none', typ: 'JWT' })}.${part(claimsOf(token))}.`;
  assertInvalidToken(await get(app.url, '/api/ping', unsigned), /^Bearer token is invalid$/);
  const forged = await resign(token, 'another secret of at least thirty-two bytes', { role: 'ADMIN' });
  assertInvalidToken(await get(app.url, '/api/ping', forged), /^Bearer token is invalid$/);
  // Signed with the right key, so only the iss/aud checks can refuse these.
  assert.is((await get(app.url, '/api/ping', await resign(token, SECRET))).status, 200);
  assertInvalidToken(
    await get(app.url, '/api/ping', await resign(token, SECRET, { iss: 'someone-else' })),
    /^Bearer token is invalid$/,
  );
  assertInvalidToken(
    await get(app.url, '/api/ping', await resign(token, SECRET, { aud: 'another-api' })),
    /^Bearer token is invalid$/,
  );
});

test('an expired token is refused, even with a valid signature', async ({ app }) => {
  const token = await registered(app.url, 'vic');
  const past = Math.floor(Date.now() / 1000) - 60;
  assertInvalidToken(
    await get(app.url, '/api/ping', await resign(token, SECRET, { iat: past - 3600, exp: past })),
    /^Bearer token has expired$/,
  );
});

test('a refused token stays refused with the same answer however often it comes back, on the fast path too', async ({
  app,
}) => {
  const token = await registered(app.url, 'xena');
  const past = Math.floor(Date.now() / 1000) - 60;
  const expired = await resign(token, SECRET, { iat: past - 3600, exp: past });
  assert.is((await get(app.url, '/api/v1/actors')).status, 200); // the fast path answers this URL from now on
  for (let round = 0; round < 3; round++) {
    assertInvalidToken(await get(app.url, '/api/v1/actors', 'not-a-jwt'), /^Bearer token is invalid$/);
    assertInvalidToken(await get(app.url, '/api/v1/actors', expired), /^Bearer token has expired$/);
    assertInvalidToken(await get(app.url, '/api/ping', expired), /^Bearer token has expired$/);
  }
  assert.is((await get(app.url, '/api/v1/actors', token)).status, 200);
});

test('a token refused once is recalled as refused, without checking it again', async () => {
  const tokens = new Tokens(new TextEncoder().encode(SECRET), 3600);
  assert.is(tokens.recall('a.b.c'), undefined, 'not checked yet');
  await tokens.verify('a.b.c').then(
    () => assert.unreachable('a broken token verified'),
    (error: unknown) => assert.ok(error instanceof TokenRejected),
  );
  const recalled = tokens.recall('a.b.c');
  assert.ok(recalled instanceof TokenRejected, 'recalled without a check');
  assert.is(recalled.reason, 'invalid');
});

/** GETs `path` with `authorization` on `agent`: the status, the account budget left, and whether the connection was reused. */
function getOn(
  agent: Agent,
  url: string,
  path: string,
  authorization: string,
): Promise<{ status: number; remaining: string | undefined; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(url + path, { agent, headers: { authorization } }, (res) => {
      res.resume().on('end', () =>
        resolve({
          status: res.statusCode!,
          remaining: res.headers['x-rate-limit-remaining'] as string | undefined,
          reused: req.reusedSocket,
        }),
      );
    });
    req.on('error', reject).end();
  });
}

test('tokens that change between requests on one keep-alive connection are each read afresh', async () => {
  const app = await startApp({ RATE_LIMIT: 'on', RATE_LIMIT_BASIC: '100', AUTH_RATE_LIMIT: '100' });
  const [first, second] = [await registered(app.url, 'yan'), await registered(app.url, 'yoko')];
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    // The first round is answered by Koa and kept, the second by the fast path; a random record always by Koa.
    for (const path of ['/api/v1/actors', '/api/v1/actors', '/api/v1/actors/random']) {
      const seen = [];
      for (const authorization of [
        `Bearer ${first}`,
        `Bearer ${second}`,
        'Bearer not-a-jwt',
        `Bearer ${first}`,
        `Bearer ${second}`,
      ])
        seen.push(await getOn(agent, app.url, path, authorization));
      assert.ok(
        seen.slice(1).every(({ reused }) => reused),
        'one connection',
      );
      assert.equal(
        seen.map(({ status }) => status),
        [200, 200, 401, 200, 200],
        path,
      );
      // Each account's own budget, counted once per request: the second token never passes for the first.
      const left = seen.map(({ remaining }) => Number(remaining));
      assert.equal([left[3]! - left[0]!, left[4]! - left[1]!], [-1, -1], `${path}: ${left.join(', ')}`);
    }
  } finally {
    agent.destroy();
    await app.close();
  }
});

test('the role that counts is the stored one, not the one in the token', async ({ app }) => {
  const admin = await tokenWithRole(app, 'ADMIN', 'wes');
  assert.is(
    (
      await post(app.url, '/api/v1/auth/register', newUser('wes_dev', { role: 'DEV' }), {
        Authorization: `Bearer ${admin}`,
      })
    ).status,
    201,
  );
  // The operator demotes the account by editing the file; the running server notices the change.
  const data = JSON.parse(await readFile(app.file, 'utf8')) as { accounts: { username: string; role: string }[] };
  data.accounts.find((a) => a.username === 'user_wes')!.role = 'BASIC';
  await writeFile(app.file, JSON.stringify(data));
  const demoted = await post(app.url, '/api/v1/auth/register', newUser('wes_dev2', { role: 'DEV' }), {
    Authorization: `Bearer ${admin}`,
  });
  assert.is(demoted.status, 403, JSON.stringify(demoted.body));
  assert.match(String(demoted.body.message), /this token is a BASIC's$/);
});

test.run();

const short = suite('a short TOKEN_TTL');

short('a token stops working once its TTL has passed', async () => {
  const app = await startApp({ TOKEN_TTL: '1' });
  try {
    const token = await registered(app.url, 'xia');
    assert.is(claimsOf(token).exp, Number(claimsOf(token).iat) + 1);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    assertInvalidToken(await get(app.url, '/api/ping', token), /^Bearer token has expired$/);
    const fresh = await post(app.url, '/api/v1/auth/authenticate', {
      username: 'user_xia',
      password: 'password of xia',
    });
    assert.is(fresh.status, 200);
  } finally {
    await app.close();
  }
});

short.run();
