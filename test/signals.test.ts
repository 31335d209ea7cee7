import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { cp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort } from '../scripts/bench/ports.ts';
import { newUser } from './helpers/accounts-app.ts';
import { tempDir, TEST_ENV } from './helpers/http.ts';
import { childPids, gone, ROOT } from './helpers/spawn.ts';
import { parseAnswer } from './helpers/wire.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `promise`, or a failure naming `what` after `ms`: a server that ignores its signal fails the test instead of hanging it. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms`)), ms)),
  );
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** npm's exit code once it has exited (null when a signal ended it). */
async function exitOf(npm: ChildProcess): Promise<number | null> {
  if (npm.exitCode !== null || npm.signalCode !== null) return npm.exitCode;
  const [code] = (await within(once(npm, 'exit'), 15_000, 'npm exit')) as [number | null];
  return code;
}

/**
 * `npm start` (or `npm run dev`: `args`) exactly as the README says, on a free port; resolves
 * once it listens. npm leads a process group of its own, as in a terminal, so Ctrl-C can be
 * replayed and `killStray` can end whatever a failed test leaves behind.
 */
async function npmStart(
  env: Record<string, string> = {},
  args = ['start'],
): Promise<{ npm: ChildProcess; port: number; output: () => string }> {
  const port = await freePort();
  const dir = await tempDir();
  const npm = spawn('npm', args, {
    cwd: ROOT,
    env: {
      ...process.env,
      ...TEST_ENV,
      LOG_LEVEL: 'info',
      PORT: String(port),
      HOST: '127.0.0.1',
      ACCOUNTS_FILE: `${dir}/accounts.json`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  npm.stdout!.on('data', (chunk) => (output += chunk));
  npm.stderr!.on('data', (chunk) => (output += chunk));
  for (let i = 0; i < 1200 && !/listening on/.test(output); i++) {
    if (npm.exitCode !== null) throw new Error(`npm ${args.join(' ')} exited: ${output}`);
    await sleep(50);
  }
  return { npm, port, output: () => output };
}

/** Kills what is left of `npm start`'s process group, so a failing test cannot hang the suite. */
function killStray(npm: ChildProcess): void {
  try {
    process.kill(-npm.pid!, 'SIGKILL');
  } catch {
    // Nothing left.
  }
}

/** The server process under `npm start`: npm's only child, plain node on the compiled code, with no child of its own. */
async function serverOf(npm: ChildProcess): Promise<number> {
  const children = await childPids(npm.pid!);
  assert.is(children.length, 1, `npm runs one process (no shell in between): ${children.join(', ')}`);
  const node = children[0]!;
  assert.match(
    (await readFile(`/proc/${node}/cmdline`, 'utf8')).replace(/\0/g, ' '),
    /^node .*dist\/main\.js/,
    'plain node on the compiled server',
  );
  assert.equal(await childPids(node), [], 'the server starts no process (no transpiler, no esbuild service)');
  return node;
}

/** A registration whose body is only half sent: in flight until `finish` sends the rest. */
function halfSentRegistration(port: number): { finish: () => void; answer: Promise<number> } {
  const body = JSON.stringify(newUser('inflight'));
  const socket = connect(port, '127.0.0.1');
  socket.write(
    `POST /api/v1/auth/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
  );
  let text = '';
  socket.on('data', (chunk) => (text += chunk));
  socket.on('error', () => {});
  const answer = new Promise<number>((resolve) => socket.on('close', () => resolve(parseAnswer(text).status)));
  // The rest is written without ending the connection: a client that half-closes may not get its answer.
  return { finish: () => socket.write(body.slice(10)), answer };
}

// Who gets the signal: npm (docker stop or pm2 on `npm start`, a script killing the pid it
// started), node (systemd, the container's CMD), or the whole process group (Ctrl-C in a
// terminal: npm and node both get SIGINT, and npm forwards its own to node as well).
const cases = [
  ['SIGTERM', 'npm'],
  ['SIGTERM', 'node'],
  ['SIGINT', 'npm'],
  ['SIGINT', 'node'],
  ['SIGINT', 'process group'],
] as const;

for (const [signal, target] of cases) {
  test(`${signal} to the ${target} of \`npm start\`: in-flight requests finish, exit 0, nothing left running`, async () => {
    const { npm, port, output } = await npmStart();
    try {
      const node = await serverOf(npm);
      const inFlight = halfSentRegistration(port);
      await sleep(200);
      process.kill(target === 'npm' ? npm.pid! : target === 'node' ? node : -npm.pid!, signal);
      await sleep(300);
      inFlight.finish();
      assert.is(
        await within(inFlight.answer, 10_000, 'the answer in flight'),
        201,
        'the request in flight was answered',
      );
      assert.is(await exitOf(npm), 0, output());
      assert.ok(await gone(node), 'no server left running');
      assert.match(output(), new RegExp(`${signal}: finishing in-flight requests`));
    } finally {
      killStray(npm);
    }
  });
}

test('a request that never finishes holds the stop up for SHUTDOWN_GRACE_SECONDS only, then its connection is closed and the exit is still 0', async () => {
  const { npm, port, output } = await npmStart({ SHUTDOWN_GRACE_SECONDS: '1' });
  try {
    const node = await serverOf(npm);
    const stuck = halfSentRegistration(port);
    await sleep(200);
    const signalled = performance.now();
    process.kill(npm.pid!, 'SIGTERM');
    const code = await exitOf(npm);
    const took = performance.now() - signalled;
    assert.is(code, 0, output());
    assert.ok(took > 900 && took < 5000, `stopped ${Math.round(took)} ms after SIGTERM`);
    assert.is(
      await within(stuck.answer, 1000, 'the stuck connection'),
      0,
      'the stuck request got no answer: its connection was closed',
    );
    assert.ok(await gone(node), 'no server left running');
  } finally {
    killStray(npm);
  }
});

/** Every process under `pid`, parents before their children (from /proc). */
async function descendants(pid: number): Promise<number[]> {
  const all: number[] = [];
  for (const child of await childPids(pid)) all.push(child, ...(await descendants(child)));
  return all;
}

/** A process's command line, for failure messages ('' once it is gone). */
const commandOf = (pid: number) =>
  readFile(`/proc/${pid}/cmdline`, 'utf8').then(
    (text) => text.replace(/\0/g, ' ').trim(),
    () => '',
  );

/** Whether anything still accepts connections on 127.0.0.1:`port`. */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/**
 * `npm run dev` as a contributor starts it, on a copy of the catalog (it watches its data
 * directory). Editors' task runners, process managers, `timeout` and `kill <pid>` signal npm
 * alone, so npm must pass the signal down to the server, and no process in between may die of
 * it and leave the server behind, still answering.
 */
async function npmRunDev(): Promise<{
  npm: ChildProcess;
  port: number;
  output: () => string;
  server: number;
  tree: number[];
}> {
  const data = join(await tempDir(), 'data');
  await cp(join(ROOT, 'data'), data, { recursive: true });
  const started = await npmStart({ DATA_DIR: data }, ['run', 'dev']);
  const tree = await descendants(started.npm.pid!);
  const commands = await Promise.all(tree.map(async (pid) => `${pid} ${await commandOf(pid)}`));
  // The server is the deepest process running scripts/dev.ts (its children, tsx's esbuild service, run no script).
  const server = tree.filter((_, i) => commands[i]!.includes('scripts/dev.ts')).at(-1);
  assert.ok(server, `a process runs scripts/dev.ts under npm: ${commands.join('; ')}`);
  return { ...started, server, tree };
}

// Who gets the signal: npm (`kill <pid>`, `timeout`, a task runner), the server process
// itself, or the whole process group (Ctrl-C in a terminal).
const devCases = [
  ['SIGTERM', 'npm'],
  ['SIGINT', 'npm'],
  ['SIGTERM', 'server'],
  ['SIGINT', 'process group'],
] as const;

for (const [signal, target] of devCases) {
  test(`${signal} to the ${target} of \`npm run dev\`: in-flight requests finish, exit 0, every process of the tree gone, the port closed`, async () => {
    const { npm, port, output, server, tree } = await npmRunDev();
    try {
      const inFlight = halfSentRegistration(port);
      await sleep(200);
      process.kill(target === 'npm' ? npm.pid! : target === 'server' ? server : -npm.pid!, signal);
      await sleep(300);
      inFlight.finish();
      assert.is(
        await within(inFlight.answer, 10_000, 'the answer in flight'),
        201,
        'the request in flight was answered',
      );
      assert.is(await exitOf(npm), 0, output());
      for (const pid of tree) {
        const command = await commandOf(pid);
        assert.ok(await gone(pid, 5000), `still running after ${signal} to the ${target}: ${pid} ${command}`);
      }
      assert.not.ok(await answers(port), `port ${port} still answers`);
      assert.match(output(), new RegExp(`${signal}: finishing in-flight requests`));
    } finally {
      killStray(npm);
    }
  });
}

test.run();
