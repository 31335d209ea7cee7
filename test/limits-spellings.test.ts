import { readFile } from 'node:fs/promises';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newUser } from './helpers/accounts-app.ts';
import { dataFile, json, startApp } from './helpers/http.ts';
import { exchange } from './helpers/wire.ts';

type Row = Record<string, unknown>;
const [actor] = await dataFile('actors.json');

/** Ways of writing the path of one route that a router, a proxy or a client might produce. */
function spellings(path: string): string[] {
  const upper = path.toUpperCase();
  const mixed = path.replace(/[a-z]/g, (c, i: number) => (i % 2 ? c.toUpperCase() : c));
  const encoded = path.replace(/v1\/(\w)/, (_m, c: string) => `v1/%${c.charCodeAt(0).toString(16)}`);
  return [
    path,
    upper,
    mixed,
    `${path}/`,
    `${upper}/`,
    encoded,
    path.replace('/v1/', '//v1/'),
    path.replace('/v1/', '/./v1/'),
    path.replace('/v1/', '/x/../v1/'),
    `${path}?`,
    `${path}#frag`,
    `/${path}`,
  ];
}

test('every spelling of a read is counted in the anonymous budget: none is served once it is spent', async () => {
  const server = await startApp({ RATE_LIMIT: 'on', RATE_LIMIT_ANONYMOUS: '5' });
  try {
    for (let i = 0; i < 5; i++) assert.is((await server.get('/api/v1/actors')).status, 200);
    const paths = [
      ...spellings('/api/v1/actors'),
      ...spellings('/api/v1/episodes'),
      ...spellings(`/api/v1/actors/${actor!.uuid}`),
      `http://127.0.0.1:${server.port}/API/V1/ACTORS`,
    ];
    for (const path of paths) {
      const answer = await exchange(
        server.port,
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
      );
      assert.ok(
        answer.status === 429 || answer.status === 400,
        `${path}: ${answer.status} ${answer.body.slice(0, 120)}`,
      );
      if (answer.status === 429) assert.is(answer.headers['ratelimit-policy'], '"anonymous";q=5;w=60', path);
    }
  } finally {
    await server.close();
  }
});

test('every spelling of an auth endpoint is counted in the auth budget and creates nothing once it is spent', async () => {
  const server = await startApp({ RATE_LIMIT: 'on', AUTH_RATE_LIMIT: '2', RATE_LIMIT_ANONYMOUS: '1000' });
  try {
    const register = (path: string, n: number) =>
      exchange(
        server.port,
        `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${JSON.stringify(newUser(n)).length}\r\nConnection: close\r\n\r\n${JSON.stringify(newUser(n))}`,
      );
    assert.is((await register('/api/v1/auth/register', 0)).status, 201);
    assert.is((await register('/api/v1/auth/register', 1)).status, 201);
    let n = 2;
    for (const path of [
      ...spellings('/api/v1/auth/register'),
      ...spellings('/api/v1/Auth/authenticate'),
      ...spellings('/api/v1/auth/delete'),
    ]) {
      const answer = await register(path, n++);
      assert.is.not(answer.status, 201, `${path} created an account`);
      assert.ok([429, 404, 400].includes(answer.status), `${path}: ${answer.status}`);
      // Whatever the router serves as an auth endpoint is counted in the auth budget, never the larger one.
      if (answer.status === 429) assert.is(answer.headers['ratelimit-policy'], '"auth";q=2;w=60', path);
    }
    const stored = (
      JSON.parse(await readFile(server.file, 'utf8')) as { accounts: { username: string }[] }
    ).accounts.map((a) => a.username);
    assert.equal(stored, ['user_0', 'user_1']);
  } finally {
    await server.close();
  }
});

test('the health check and the reference page count in no budget, in any spelling', async () => {
  const server = await startApp({ RATE_LIMIT: 'on', RATE_LIMIT_ANONYMOUS: '2' });
  try {
    for (let i = 0; i < 2; i++) await server.get('/api/v1/endpoints');
    assert.is((await server.get('/api/v1/endpoints')).status, 429);
    for (const path of [
      '/api/ping',
      '/API/PING',
      '/api/ping/',
      '/api/docs',
      '/api/docs/swagger-ui.css',
      '/api/openapi.json',
      '/',
    ]) {
      for (let i = 0; i < 3; i++) {
        const answer = await fetch(server.url + path, { redirect: 'manual' });
        assert.ok(answer.status < 400, `${path}: ${answer.status}`);
        assert.is(answer.headers.get('x-rate-limit-remaining'), null, path);
      }
    }
  } finally {
    await server.close();
  }
});

test('behind one proxy the address is the rightmost X-Forwarded-For entry: a forged left part changes nothing', async () => {
  const server = await startApp({ RATE_LIMIT: 'on', RATE_LIMIT_ANONYMOUS: '20', TRUST_PROXY: 'true' });
  try {
    const statuses: number[] = [];
    // What nginx's $proxy_add_x_forwarded_for sends when the client wrote its own header first.
    for (let i = 0; i < 30; i++)
      statuses.push((await server.get('/api/v1/endpoints', { 'X-Forwarded-For': `10.9.8.${i}, 203.0.113.7` })).status);
    assert.equal(statuses.filter((s) => s === 200).length, 20);
    assert.equal(statuses.slice(20), Array(10).fill(429));
    const other = await server.get('/api/v1/endpoints', { 'X-Forwarded-For': '203.0.113.7, 198.51.100.9' });
    assert.is(other.status, 200, 'another client behind the proxy has its own budget');
    const refused = await json<Row>(await server.get('/api/v1/endpoints', { 'X-Forwarded-For': '203.0.113.7' }));
    assert.match(String(refused.message), /^Too many requests from address 203\.0\.113\.7:/);
  } finally {
    await server.close();
  }
});

test('behind two proxies the second entry from the right is the client', async () => {
  const server = await startApp({ RATE_LIMIT: 'on', RATE_LIMIT_ANONYMOUS: '3', TRUST_PROXY: '2' });
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (await server.get('/api/v1/endpoints', { 'X-Forwarded-For': `6.6.6.${i}, 203.0.113.7, 10.0.0.${i}` })).status,
      );
    assert.equal(statuses, [200, 200, 200, 429, 429]);
    const refused = await json<Row>(
      await server.get('/api/v1/endpoints', { 'X-Forwarded-For': '203.0.113.7, 10.0.0.1' }),
    );
    assert.match(String(refused.message), /^Too many requests from address 203\.0\.113\.7:/);
  } finally {
    await server.close();
  }
});

test('a trusted X-Forwarded-For entry that is not an address counts against the peer, with one warning', async () => {
  const server = await startApp({
    RATE_LIMIT: 'on',
    RATE_LIMIT_ANONYMOUS: '20',
    AUTH_RATE_LIMIT: '3',
    TRUST_PROXY: '1',
  });
  try {
    // Each a different value in the trusted place: none may open a budget of its own. The same
    // URL again and again is answered by the fast path after the first time, a new URL by Koa.
    const garbage = (i: number) =>
      [
        `w${i}`,
        `unknown-${i}`,
        `${i}`,
        `127.${i}`,
        `0x7f.0.0.${i}`,
        `1.2.3.${i}.5`,
        `[nope${i}]`,
        `${'x'.repeat(200)}${i}`,
        ` `,
      ][i % 9]!;
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const path = i % 2 ? '/api/v1/endpoints' : `/api/v1/endpoints?i=${i}`;
      statuses.push((await server.get(path, { 'X-Forwarded-For': `198.51.100.1, ${garbage(i)}` })).status);
    }
    assert.is(statuses.filter((s) => s !== 429).length, 20, `statuses: ${statuses.join(' ')}`);
    const refused = await json<Row>(await server.get('/api/v1/endpoints', { 'X-Forwarded-For': 'garbage' }));
    assert.match(String(refused.message), /^Too many requests from address 127\.0\.0\.1:/, 'counted against the peer');
    assert.is(
      (await server.get('/api/v1/endpoints', { 'X-Forwarded-For': '203.0.113.7:4711' })).status,
      200,
      'an address with a port is an address',
    );
    const auth = [];
    for (let i = 0; i < 5; i++)
      auth.push(
        (
          await fetch(`${server.url}/api/v1/auth/authenticate`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `bad-${i}` },
            body: '{}',
          })
        ).status,
      );
    assert.equal(auth.slice(3), [429, 429], `the auth budget too: ${auth.join(' ')}`);
    await server.close();
    const warnings = server.warnings.filter((line) => line.includes('X-Forwarded-For'));
    assert.is(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0]!, /TRUST_PROXY=1/);
  } finally {
    await server.close();
  }
});

test('IPv6 clients are counted by their /64, IPv4-mapped addresses as IPv4, in every budget', async () => {
  const server = await startApp({
    RATE_LIMIT: 'on',
    RATE_LIMIT_ANONYMOUS: '4',
    AUTH_RATE_LIMIT: '2',
    TRUST_PROXY: '1',
  });
  try {
    const from = (address: string) => ({ 'X-Forwarded-For': address });
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++)
      statuses.push((await server.get('/api/v1/endpoints', from(`2001:db8:7:1:${i.toString(16)}:0:0:${i}`))).status);
    assert.equal(statuses, [200, 200, 200, 200, 429, 429], 'rotating addresses inside one /64');
    const refused = await json<Row>(await server.get('/api/v1/endpoints', from('2001:0db8:0007:0001::ffff')));
    assert.match(String(refused.message), /address 2001:db8:7:1::\/64/);
    assert.is(
      (await server.get('/api/v1/endpoints', from('2001:db8:7:2::1'))).status,
      200,
      'the next /64 is another client',
    );
    const mapped: number[] = [];
    for (const address of ['198.51.100.4', '::ffff:198.51.100.4', '::ffff:c633:6404', '198.51.100.4', '198.51.100.4']) {
      mapped.push((await server.get('/api/v1/endpoints', from(address))).status);
    }
    assert.equal(mapped, [200, 200, 200, 200, 429], 'one IPv4 client however its address is written');
    const auth = (address: string) =>
      fetch(`${server.url}/api/v1/auth/authenticate`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...from(address) },
        body: '{}',
      });
    const authStatuses = [];
    for (let i = 1; i <= 3; i++) authStatuses.push((await auth(`2001:db8:9:9::${i}`)).status);
    assert.equal(authStatuses.slice(2), [429], 'the auth budget is per /64 too');
  } finally {
    await server.close();
  }
});

test('a spent budget is refused on the fast path too: one count per request, whichever path answers', async () => {
  const server = await startApp({ RATE_LIMIT: 'on', RATE_LIMIT_ANONYMOUS: '60' });
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      // Even requests repeat a URL (the fast path answers them), odd ones are new to the server.
      const path = i % 2 === 0 ? '/api/v1/actors?size=1' : `/api/v1/actors?size=1&page=${i}`;
      const answer = await server.get(path);
      statuses.push(answer.status);
      if (answer.status === 200) assert.is(answer.headers.get('x-rate-limit-remaining'), String(59 - i), path);
    }
    assert.equal(statuses.slice(0, 60), Array(60).fill(200));
    assert.is(statuses[60], 429);
  } finally {
    await server.close();
  }
});

test('a browser page over its budget gets a short readable page; API clients keep the error shape', async () => {
  const server = await startApp({ RATE_LIMIT: 'on', RATE_LIMIT_ANONYMOUS: '1' });
  try {
    const browser = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    await server.get('/api/v1/overview', browser);
    for (let i = 0; i < 2; i++) {
      // The second refusal comes from the fast path: the same page.
      const page = await server.get('/api/v1/overview', browser);
      assert.is(page.status, 429);
      assert.is(page.headers.get('content-type'), 'text/html; charset=utf-8');
      const text = await page.text();
      assert.match(text, /<h1>429 Too Many Requests<\/h1>/);
      assert.match(text, /the anonymous tier allows 1 per 60 s; retry in \d+ s/);
      assert.ok(page.headers.get('retry-after'));
    }
    const api = await server.get('/api/v1/overview', { Accept: 'application/json' });
    assert.is(api.status, 429);
    assert.is(api.headers.get('content-type'), 'application/json');
    assert.is((await json<Row>(api)).code, 429);
  } finally {
    await server.close();
  }
});

test.run();
