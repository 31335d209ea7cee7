import { once } from 'node:events';
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { tempDir, TEST_ENV } from './helpers/http.ts';
import { listeningUrl, startServer } from './helpers/spawn.ts';

/** This machine's own addresses on its networks, as `os.networkInterfaces()` lists them. */
const external = Object.values(networkInterfaces())
  .flat()
  .filter((address): address is NetworkInterfaceInfo => address !== undefined && !address.internal);

/** The URLs the boot lines give for the machine's networks. */
const networkLine = (output: string) =>
  (/on this machine's networks: (.*)/.exec(output)?.[1] ?? '').split(', ').filter(Boolean);

test('bound to :: the boot lines give every IPv4 address and every routable IPv6 one in brackets, each answering', async () => {
  const server = startServer({
    ...TEST_ENV,
    LOG_LEVEL: 'info',
    HOST: '::',
    ACCOUNTS_FILE: join(await tempDir(), 'accounts.json'),
  });
  try {
    const port = new URL(await listeningUrl(server)).port;
    const listed = networkLine(server.output());
    const expected = external
      .filter((a) => a.family === 'IPv4' || !a.address.toLowerCase().startsWith('fe80'))
      .map((a) => (a.family === 'IPv4' ? `http://${a.address}:${port}` : `http://[${a.address}]:${port}`));
    assert.equal([...listed].sort(), [...expected].sort(), server.output());
    // What a student types must reach the server: each URL, from this machine, answers.
    for (const url of listed) assert.is(await (await fetch(`${url}/api/ping`)).text(), 'Pong', url);
  } finally {
    server.child.kill('SIGTERM');
    await once(server.child, 'exit');
  }
});

test('bound to 0.0.0.0 only IPv4 addresses are given; bound to one address, none', async () => {
  for (const [host, family] of [
    ['0.0.0.0', 'IPv4'],
    ['127.0.0.1', undefined],
  ] as const) {
    const server = startServer({
      ...TEST_ENV,
      LOG_LEVEL: 'info',
      HOST: host,
      ACCOUNTS_FILE: join(await tempDir(), 'accounts.json'),
    });
    try {
      const port = new URL(await listeningUrl(server)).port;
      const expected = external.filter((a) => a.family === family).map((a) => `http://${a.address}:${port}`);
      assert.equal(networkLine(server.output()).sort(), expected.sort(), `${host}: ${server.output()}`);
    } finally {
      server.child.kill('SIGTERM');
      await once(server.child, 'exit');
    }
  }
});

test.run();
