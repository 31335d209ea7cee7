import { once } from 'node:events';
import { join, resolve } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readConfig, VARIABLES } from '../src/config/env.ts';
import { FIXTURES, problemFixture } from './helpers/fixtures.ts';
import { listeningUrl, ROOT, runToExit, startServer } from './helpers/spawn.ts';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';

test('defaults apply when the environment is empty', () => {
  const result = readConfig({});
  assert.ok('config' in result);
  const { PORT, HOST, DATA_DIR, DEFAULT_LANGUAGE, MAX_PAGE_SIZE, CACHE_MAX_AGE, LOG_LEVEL } = result.config;
  assert.equal(
    { PORT, HOST, DATA_DIR, DEFAULT_LANGUAGE, MAX_PAGE_SIZE, CACHE_MAX_AGE, LOG_LEVEL },
    {
      PORT: 3000,
      HOST: '0.0.0.0',
      DATA_DIR: resolve('./data'),
      DEFAULT_LANGUAGE: 'en-US',
      MAX_PAGE_SIZE: 50,
      CACHE_MAX_AGE: 300,
      LOG_LEVEL: 'info',
    },
  );
});

test('each bad value is refused with the variable and what it accepts', () => {
  assert.equal(readConfig({ PORT: 'abc' }), { error: "PORT must be an integer from 0 to 65535 (got 'abc')" });
  assert.equal(readConfig({ PORT: '70000' }), { error: "PORT must be an integer from 0 to 65535 (got '70000')" });
  assert.equal(readConfig({ DEFAULT_LANGUAGE: 'en_US!' }), {
    error: "DEFAULT_LANGUAGE must be a BCP 47 language tag such as en-US (got 'en_US!')",
  });
  assert.equal(readConfig({ HOST: '   ' }), { error: "HOST must be a non-empty value (got '   ')" });
  assert.equal(readConfig({ SCRYPT_N: '1000' }), {
    error: "SCRYPT_N must be a power of two from 1024 to 1048576 (got '1000')",
  });
  assert.equal(readConfig({ TOKEN_TTL: '0' }), { error: "TOKEN_TTL must be an integer from 1 to 31536000 (got '0')" });
});

test('a JWT_SECRET under 32 bytes is refused without being repeated', () => {
  assert.equal(readConfig({ JWT_SECRET: 'hunter2' }), { error: 'JWT_SECRET must be at least 32 bytes (got 7 bytes)' });
  const result = readConfig({ JWT_SECRET: 'x'.repeat(32) });
  assert.ok('config' in result && result.config.JWT_SECRET === 'x'.repeat(32));
});

test('a language tag is taken in its canonical spelling', () => {
  const result = readConfig({ DEFAULT_LANGUAGE: 'pt-br' });
  assert.ok('config' in result && result.config.DEFAULT_LANGUAGE === 'pt-BR');
});

test('the configuration page lists every variable with its default, and no other', async () => {
  const page = await readFile(join(ROOT, 'docs/configuration.md'), 'utf8');
  const table = /^## Variables\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(page)?.[1] ?? '';
  const rows = new Map(
    [...table.matchAll(/^\| `(\w+)` \| ([^|]+) \|/gm)].map(([, name, shown]) => [name!, shown!.trim()]),
  );
  for (const [name, variable] of Object.entries(VARIABLES)) {
    assert.is(rows.get(name), variable.default === '' ? '(unset)' : `\`${variable.default}\``, `${name} row`);
  }
  assert.equal([...rows.keys()].sort(), Object.keys(VARIABLES).sort());
});

test('a bad variable stops the process with one line and exit code 1', async () => {
  const { code, output } = await runToExit({ PORT: 'abc' });
  assert.is(code, 1);
  assert.is(output.trim(), "PORT must be an integer from 0 to 65535 (got 'abc')");
});

test('a broken data directory stops the process with every problem and exit code 1', async () => {
  const { dir } = await problemFixture('schema-violations');
  const { code, output } = await runToExit({ DATA_DIR: dir });
  assert.is(code, 1);
  const expected = await readFile(join(FIXTURES, 'problems', 'schema-violations', 'expected.txt'), 'utf8');
  assert.ok(output.startsWith(expected), output);
  assert.not.match(output, /listening/);
});

test('a JWT_SECRET under 32 bytes stops the boot without printing it', async () => {
  const { code, output } = await runToExit({ JWT_SECRET: 'too-short-secret' });
  assert.is(code, 1);
  assert.is(output.trim(), 'JWT_SECRET must be at least 32 bytes (got 16 bytes)');
});

test('without JWT_SECRET a key is generated once, kept in a 0600 file, and tokens survive a restart', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'boot-secret-'));
  const env = { ACCOUNTS_FILE: join(dir, 'accounts.json'), SCRYPT_N: '1024' };
  const first = startServer(env);
  const url = await listeningUrl(first);
  const secretFile = join(dir, 'jwt-secret');
  assert.ok(
    first.output().includes(`JWT secret: generated a 256-bit key in ${secretFile} (mode 0600)`),
    first.output(),
  );
  const key = (await readFile(secretFile, 'utf8')).trim();
  assert.is(Buffer.from(key, 'base64url').length, 32);
  assert.is((await stat(secretFile)).mode & 0o777, 0o600);
  const registered = await fetch(`${url}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      first_name: 'Boot',
      last_name: 'Test',
      username: 'boot',
      email: 'boot@example.org',
      password: 'a boot password',
    }),
  });
  assert.is(registered.status, 201);
  const { token } = (await registered.json()) as { token: string };
  first.child.kill('SIGTERM');
  await once(first.child, 'exit');

  const second = startServer(env);
  const again = await listeningUrl(second);
  assert.ok(second.output().includes(`JWT secret: read from ${secretFile}`), second.output());
  assert.not.ok(first.output().includes(key) || second.output().includes(key), 'the key is never printed');
  const ping = await fetch(`${again}/api/ping`, { headers: { Authorization: `Bearer ${token}` } });
  assert.is(ping.status, 200);
  second.child.kill('SIGTERM');
  await once(second.child, 'exit');
});

test('boot prints the summary, serves, and exits 0 on SIGTERM', async () => {
  const server = startServer({ ACCOUNTS_FILE: join(await mkdtemp(join(tmpdir(), 'boot-')), 'accounts.json') });
  const url = await listeningUrl(server);
  assert.match(
    server.output(),
    /catalog: 110 records \(actors 20, characters 20, episodes 24, seasons 3, locations 15, soundtracks 24, games 3\) in \d+ ms; languages en-US \(default\), pt-BR, es-ES/,
  );
  assert.match(server.output(), /^rate limits: in memory$/m);
  const response = await fetch(`${url}/api/ping`);
  assert.is(await response.text(), 'Pong');
  server.child.kill('SIGTERM');
  const [code] = await once(server.child, 'exit');
  assert.is(code, 0);
});

test('with RATE_LIMIT=off a boot line says the limits are off and what that means', async () => {
  for (const spelling of ['off', 'NO']) {
    const server = startServer({
      RATE_LIMIT: spelling,
      ACCOUNTS_FILE: join(await mkdtemp(join(tmpdir(), 'boot-')), 'accounts.json'),
    });
    try {
      await listeningUrl(server);
      assert.match(
        server.output(),
        /^rate limits: off \(RATE_LIMIT=off\): any client may send any number of requests, to \/api\/v1\/auth\/\* too, and none is answered 429; for servers strangers cannot reach$/m,
        spelling,
      );
    } finally {
      if (server.child.exitCode === null && server.child.kill('SIGTERM')) await once(server.child, 'exit');
    }
  }
});

test.run();
