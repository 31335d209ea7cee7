import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newUser, post, registered } from './helpers/accounts-app.ts';
import { tokenWithRole } from './helpers/admin.ts';
import { json, startApp } from './helpers/http.ts';

type Row = Record<string, unknown>;

const tiers = {
  RATE_LIMIT: 'on',
  RATE_LIMIT_ANONYMOUS: '2',
  RATE_LIMIT_BASIC: '4',
  RATE_LIMIT_DEV: '6',
  RATE_LIMIT_MAINTAINER: '7',
  AUTH_RATE_LIMIT: '100',
};

/** Statuses of `n` pings with `token`. */
async function pings(url: string, n: number, token?: string): Promise<{ statuses: number[]; last: Response }> {
  const statuses: number[] = [];
  let last!: Response;
  for (let i = 0; i < n; i++) {
    last = await fetch(`${url}/api/v1/endpoints`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    statuses.push(last.status);
  }
  return { statuses, last };
}

test('a token moves a client to its tier; the N+1th request of each tier is a 429', async () => {
  const server = await startApp(tiers);
  try {
    const basic = await registered(server.url, 'basic1');
    const dev = await tokenWithRole(server, 'DEV', 'dev1');
    const maintainer = await tokenWithRole(server, 'MAINTAINER', 'maint1');
    const admin = await tokenWithRole(server, 'ADMIN', 'admin1');
    const cases: [string | undefined, number, string][] = [
      [undefined, 2, 'anonymous'],
      [basic, 4, 'basic'],
      [dev, 6, 'dev'],
      [maintainer, 7, 'maintainer'],
    ];
    for (const [token, limit, policy] of cases) {
      const { statuses, last } = await pings(server.url, limit + 1, token);
      assert.equal(statuses, [...Array(limit).fill(200), 429], policy);
      assert.is(last.headers.get('ratelimit-policy'), `"${policy}";q=${limit};w=60`);
      const body = await json<Row>(last);
      assert.match(String(body.message), policy === 'anonymous' ? /from address 127\.0\.0\.1/ : /from account 'user_/);
    }
    const unlimited = await pings(server.url, 20, admin);
    assert.equal(unlimited.statuses, Array(20).fill(200), 'ADMIN is not limited');
    assert.is(unlimited.last.headers.get('x-rate-limit-remaining'), null);
  } finally {
    await server.close();
  }
});

test('each account has its own budget, apart from its address', async () => {
  const server = await startApp(tiers);
  try {
    const first = await registered(server.url, 'own1');
    const second = await registered(server.url, 'own2');
    assert.equal((await pings(server.url, 5, first)).statuses, [200, 200, 200, 200, 429]);
    assert.equal((await pings(server.url, 4, second)).statuses, [200, 200, 200, 200]);
    assert.equal((await pings(server.url, 2)).statuses, [200, 200], 'the address keeps its anonymous budget');
  } finally {
    await server.close();
  }
});

test('a refused token counts against its address, then gets its 401', async () => {
  const server = await startApp(tiers);
  try {
    const { statuses } = await pings(server.url, 3, 'not.a.token');
    assert.equal(statuses, [401, 401, 429]);
  } finally {
    await server.close();
  }
});

test('failed sign-ins per username are limited whatever the address', async () => {
  const server = await startApp({
    RATE_LIMIT: 'on',
    TRUST_PROXY: 'true',
    AUTH_RATE_LIMIT: '100',
    LOGIN_FAILURE_LIMIT: '3',
  });
  try {
    await registered(server.url, 'target');
    const attempt = (password: string, address: string, path = '/api/v1/auth/authenticate') =>
      post(server.url, path, { username: 'user_target', password }, { 'X-Forwarded-For': address });
    for (let i = 1; i <= 3; i++) assert.is((await attempt(`wrong guess ${i}`, `203.0.113.${i}`)).status, 401);
    const blocked = await attempt('password of target', '203.0.113.99');
    assert.is(blocked.status, 429, 'even the right password, from a new address');
    assert.match(String(blocked.body.message), /^Too many failed sign-ins for username 'user_target'; retry in \d+ s$/);
    assert.ok(Number(blocked.headers.get('retry-after')) > 0);
    assert.is(
      (await attempt('password of target', '203.0.113.99', '/api/v1/auth/delete')).status,
      429,
      'deletion is guarded too',
    );
    await registered(server.url, 'bystander');
    const other = await post(server.url, '/api/v1/auth/authenticate', {
      username: 'user_bystander',
      password: 'password of bystander',
    });
    assert.is(other.status, 200, 'other usernames are unaffected');
  } finally {
    await server.close();
  }
});

test('sign-ups count against the stricter auth budget per address', async () => {
  const server = await startApp({ RATE_LIMIT: 'on', AUTH_RATE_LIMIT: '2' });
  try {
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await post(server.url, '/api/v1/auth/register', newUser(`burst${i}`))).status);
    assert.equal(statuses, [201, 201, 429]);
  } finally {
    await server.close();
  }
});

test.run();
