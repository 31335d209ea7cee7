import { once } from 'node:events';
import { join, resolve } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readConfig } from '../src/config/env.ts';
import { dataFile, tempDir, TEST_ENV } from './helpers/http.ts';
import { runToExit, startServer } from './helpers/spawn.ts';

const configOf = (env: Record<string, string>) => {
  const result = readConfig(env);
  if ('error' in result) throw new Error(result.error);
  return result.config;
};

test('switches take true/false, on/off, 1/0 and yes/no in any case; log levels the usual names', () => {
  for (const [raw, value] of [
    ['on', true],
    ['OFF', false],
    ['1', true],
    ['0', false],
    ['True', true],
    ['no', false],
    ['yes', true],
  ] as const) {
    assert.is(configOf({ RATE_LIMIT: raw }).RATE_LIMIT, value, `RATE_LIMIT=${raw}`);
    assert.is(configOf({ WATCH_DATA: raw }).WATCH_DATA, value, `WATCH_DATA=${raw}`);
  }
  assert.equal(readConfig({ RATE_LIMIT: 'maybe' }), {
    error: "RATE_LIMIT must be true or false (also on/off, 1/0, yes/no) (got 'maybe')",
  });
  for (const [raw, hops] of [
    ['false', 0],
    ['true', 1],
    ['on', 1],
    ['2', 2],
    ['0', 0],
  ] as const)
    assert.is(configOf({ TRUST_PROXY: raw }).TRUST_PROXY, hops, `TRUST_PROXY=${raw}`);
  for (const level of ['debug', 'info', 'warn', 'error', 'silent'])
    assert.is(configOf({ LOG_LEVEL: level }).LOG_LEVEL, level);
  assert.equal(readConfig({ LOG_LEVEL: 'verbose' }), {
    error: "LOG_LEVEL must be one of debug, info, warn, error, silent (got 'verbose')",
  });
  assert.is(configOf({ LOG_FORMAT: 'json' }).LOG_FORMAT, 'json');
  assert.is(configOf({ DATA_DIR: 'data' }).DATA_DIR, resolve('data'), 'paths are made absolute');
  assert.equal(readConfig({ NODE_ENV: 'production', SCRYPT_N: '1024' }), {
    error: "SCRYPT_N must be at least 131072 when NODE_ENV=production (got '1024'); lower values are for tests",
  });
  assert.is(configOf({ NODE_ENV: 'production' }).SCRYPT_N, 131072);
});

test('LOG_FORMAT=json: every line the server writes is one JSON object, requests with their fields', async () => {
  const server = startServer({
    ...TEST_ENV,
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    ACCOUNTS_FILE: join(await tempDir(), 'accounts.json'),
  });
  let url = '';
  for (let i = 0; i < 400 && !url; i++) {
    url = /"msg":"listening on (http:\/\/[^ "]+)/.exec(server.output())?.[1] ?? '';
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.ok(url, server.output());
  const [actor] = await dataFile('actors.json');
  for (let i = 0; i < 3; i++) await (await fetch(`${url}/api/v1/actors/${actor!.uuid}`)).arrayBuffer();
  await (await fetch(`${url}/api/v1/nothing`)).arrayBuffer();
  server.child.kill('SIGTERM');
  await once(server.child, 'exit');
  const lines = server.output().trim().split('\n');
  const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  for (const record of records) {
    assert.type(record.level, 'number');
    assert.match(String(record.time), /^\d{4}-\d{2}-\d{2}T/);
  }
  const requests = records.filter((r) => r.msg === 'request');
  assert.is(requests.length, 4, 'one record per request, from Koa and the fast path alike');
  assert.equal(
    requests.map(({ method, path, status }) => ({ method, path, status })),
    [
      ...Array(3).fill({ method: 'GET', path: `/api/v1/actors/${actor!.uuid}`, status: 200 }),
      { method: 'GET', path: '/api/v1/nothing', status: 404 },
    ],
  );
  assert.ok(records.some((r) => String(r.msg).startsWith('catalog: 110 records')));
});

test('boot errors name files and folders by their whole path', async () => {
  const { code, output } = await runToExit({ ...TEST_ENV, DATA_DIR: 'test/fixtures/problems/invalid-json' });
  assert.is(code, 1);
  assert.ok(output.includes(resolve('test/fixtures/problems/invalid-json')), output);
});

test.run();
