import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort } from '../scripts/bench/ports.ts';
import { waitUntilUp } from './helpers/compiled-server.ts';
import { tempDir, TEST_ENV } from './helpers/http.ts';
import { ROOT } from './helpers/spawn.ts';
import { ensureBuilt, START_ARGS } from './helpers/start-command.ts';

// V8 marks the computed-key object literal in process.nextTick megamorphic once an idle full
// collection has taken the maps its feedback remembered (src/lib/tick-object-anchor.ts). These
// tests read that feedback itself, as V8's %DebugPrint shows it, not a timing.

// Maps no object holds die at the next full collection, not two later (V8 keeps them for two by
// default): otherwise whether four collections free them depends on the machine's load.
const V8_FLAGS = ['--expose-gc', '--allow-natives-syntax', '--retain-maps-for-n-gc=0'];

/** The state of each feedback slot of nextTick's object literal, from what %DebugPrint printed. */
function literalStates(printed: string): string[] {
  return [...printed.matchAll(/slot #\d+ DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((match) => match[1]!);
}

/** Holds a tick object when ANCHOR is set; ticks, collects four times while no tick object is alive (ticking between), prints nextTick. */
const IDLE_COLLECTIONS = `
import { anchorTickObject } from './src/lib/tick-object-anchor.ts';
if (process.env.ANCHOR && !('callback' in (await anchorTickObject()))) throw new Error('the anchor holds no tick object');
const ticks = () => new Promise((done) => { let n = 0; const f = () => (++n < 1000 ? process.nextTick(f) : done()); process.nextTick(f); });
await ticks();
for (let round = 0; round < 4; round++) {
  await new Promise((resolve) => setTimeout(resolve, 20));
  globalThis.gc();
  await ticks();
}
new Function('value', '%DebugPrint(value)')(process.nextTick);
`;

/**
 * A file for a child's stdout, where %DebugPrint writes: read from a pipe that Node opened, its
 * print came cut short (at about 3 KB of 12), a file held it whole.
 */
async function printFile(): Promise<{ fd: number; read: () => string }> {
  const path = join(await tempDir(), 'stdout.txt');
  const fd = openSync(path, 'w');
  return {
    fd,
    read: () => {
      closeSync(fd);
      return readFileSync(path, 'utf8');
    },
  };
}

async function idleCollections(anchor: boolean): Promise<string[]> {
  const stdout = await printFile();
  const run = spawnSync(
    process.execPath,
    [...V8_FLAGS, '--import', 'tsx', '--input-type=module', '--eval', IDLE_COLLECTIONS],
    {
      cwd: ROOT,
      env: { ...process.env, ANCHOR: anchor ? '1' : '' },
      encoding: 'utf8',
      stdio: ['ignore', stdout.fd, 'pipe'],
    },
  );
  const printed = stdout.read();
  assert.is(run.status, 0, run.stderr);
  return literalStates(printed);
}

test('without the anchor, idle collections leave nextTick megamorphic (what the anchor is for)', async () => {
  const states = await idleCollections(false);
  assert.ok(states.length >= 2, `nextTick's literal slots not found in %DebugPrint's output: ${states.join(', ')}`);
  assert.ok(states.includes('MEGAMORPHIC'), `expected a megamorphic slot, got ${states.join(', ')}`);
});

test('with the anchor, the same collections leave every slot of the literal monomorphic', async () => {
  const states = await idleCollections(true);
  assert.ok(states.length >= 2, `nextTick's literal slots not found: ${states.join(', ')}`);
  assert.equal([...new Set(states)], ['MONOMORPHIC'], `slot states: ${states.join(', ')}`);
});

/** Waits until `line` appears in what `read` returns, or fails after 10 s. */
async function until(read: () => string, line: string): Promise<void> {
  for (const deadline = Date.now() + 10_000; !read().includes(line);) {
    if (Date.now() > deadline) throw new Error(`'${line}' not seen within 10 s:\n${read()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('the compiled server anchors: reads after idle collections leave nextTick monomorphic', async () => {
  ensureBuilt();
  const port = await freePort();
  const probe = join(ROOT, 'test', 'helpers', 'tick-feedback-probe.mjs');
  const printed = await printFile();
  const child = spawn(process.execPath, [...V8_FLAGS, '--import', probe, ...START_ARGS], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...TEST_ENV,
      ACCOUNTS_FILE: join(await tempDir(), 'accounts.json'),
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', printed.fd, 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = once(child, 'exit');
  try {
    const url = `http://127.0.0.1:${port}`;
    const read = async (n: number) => {
      for (let i = 0; i < n; i++) assert.is((await fetch(`${url}/api/v1/actors?page=${1 + (i % 3)}`)).status, 200);
    };
    await waitUntilUp(
      url,
      () => child.exitCode !== null,
      () => stderr,
    );
    await read(300);
    child.kill('SIGUSR2');
    await until(() => stderr, 'tick-probe: collected');
    await read(300);
    child.kill('SIGWINCH');
    await until(() => stderr, 'tick-probe: printed');
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  const stdout = printed.read();
  const states = literalStates(stdout);
  assert.ok(states.length >= 2, `nextTick's literal slots not found in the server's output:\n${stdout.slice(-2000)}`);
  assert.equal([...new Set(states)], ['MONOMORPHIC'], `slot states: ${states.join(', ')}`);
});

test.run();
