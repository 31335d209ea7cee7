import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort } from '../scripts/bench/ports.ts';
import { qrText } from '../src/http/classroom-banner.ts';
import { tempDir, TEST_ENV } from './helpers/http.ts';
import { ROOT } from './helpers/spawn.ts';
import { ensureBuilt } from './helpers/start-command.ts';

/** The machine's IPv4 addresses on its networks, as a student would type them. */
const addresses = (port: number) =>
  Object.values(networkInterfaces())
    .flat()
    .filter((address) => address && !address.internal && address.family === 'IPv4')
    .map((address) => `http://${address!.address}:${port}`);

/** The last line of the banner: once printed, the banner is whole. */
const BANNER_END =
  /rate limits per address, for a class behind one: 1800 requests without a token, 120 to \/api\/v1\/auth\/\*, per 60 s\n/;

test('npm run classroom prints the addresses, a QR code of the first and that nothing needs the internet, serves the simulation, and stops on SIGTERM', async () => {
  ensureBuilt();
  const port = await freePort();
  const env: Record<string, string | undefined> = {
    ...process.env,
    ...TEST_ENV,
    RATE_LIMIT: 'on',
    LOG_LEVEL: 'info',
    PORT: String(port),
    ACCOUNTS_FILE: join(await tempDir(), 'accounts.json'),
  };
  delete env.HOST;
  const child = spawn('npm', ['run', '--silent', 'classroom'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = once(child, 'exit');
  try {
    for (const deadline = Date.now() + 60_000; !BANNER_END.test(output);) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`no classroom banner:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.match(output, `listening on http://localhost:${port} (bound to 0.0.0.0)`);
    assert.match(output, 'nothing needs the internet');
    const expected = addresses(port);
    if (expected.length === 0) {
      assert.match(output, 'classroom mode: no address on a network to give students');
    } else {
      for (const url of expected) assert.match(output, `\n  ${url}\n`);
      assert.match(output, `${expected[0]} as a QR code:\n${qrText(expected[0]!)}\n`);
      const lines = qrText(expected[0]!).split('\n');
      assert.ok(
        lines.every((line) => line.length === lines[0]!.length && /^[█▀▄ ]+$/.test(line)),
        'a block of QR modules',
      );
    }
    // Classroom mode: the simulation is on, and the class-sized budget.
    const failed = await fetch(`http://127.0.0.1:${port}/api/v1/seasons?_fail=503`);
    assert.is(failed.status, 503);
    assert.is(failed.headers.get('x-rate-limit-limit'), '1800');
  } finally {
    child.kill('SIGTERM');
  }
  const [code] = (await exited) as [number | null];
  assert.is(code, 0, output);
  assert.match(output, 'SIGTERM: finishing in-flight requests');
  const stillUp = await fetch(`http://127.0.0.1:${port}/api/ping`).then(
    () => true,
    () => false,
  );
  assert.not.ok(stillUp, 'nothing is left listening');
});

test('npm run classroom with an argument it does not know says how to use it', async () => {
  const child = spawn('npm', ['run', '--silent', 'classroom', '--', 'nonsense'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  assert.is(code, 1);
  assert.match(errors, 'usage: npm run classroom');
});

test.run();
