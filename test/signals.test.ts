import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { readFile } from 'node:fs/promises';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort } from '../scripts/bench/ports.ts';
import { newUser } from './helpers/accounts-app.ts';
import { tempDir, TEST_ENV } from './helpers/http.ts';
import { ROOT } from './helpers/spawn.ts';
import { parseAnswer } from './helpers/wire.ts';

/** `npm start` exactly as the README says, on a free port; resolves once it listens. */
async function npmStart(): Promise<{ npm: ChildProcess; port: number; output: () => string }> {
  const port = await freePort();
  const dir = await tempDir();
  const npm = spawn('npm', ['start'], { cwd: ROOT, env: { ...process.env, ...TEST_ENV, LOG_LEVEL: 'info', PORT: String(port), HOST: '127.0.0.1', ACCOUNTS_FILE: `${dir}/accounts.json` }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  npm.stdout!.on('data', (chunk) => (output += chunk));
  npm.stderr!.on('data', (chunk) => (output += chunk));
  for (let i = 0; i < 1200 && !/listening on/.test(output); i++) {
    if (npm.exitCode !== null) throw new Error(`npm start exited: ${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { npm, port, output: () => output };
}

/** The pids of `pid`'s children. */
async function children(pid: number): Promise<number[]> {
  const text = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  return text.split(/\s+/).filter(Boolean).map(Number);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A registration whose body is only half sent: in flight until `finish` sends the rest. */
function halfSentRegistration(port: number): { finish: () => void; answer: Promise<number> } {
  const body = JSON.stringify(newUser('inflight'));
  const socket = connect(port, '127.0.0.1');
  socket.write(`POST /api/v1/auth/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`);
  let text = '';
  socket.on('data', (chunk) => (text += chunk));
  const answer = new Promise<number>((resolve) => socket.on('close', () => resolve(parseAnswer(text).status)));
  // The rest is written without ending the connection: a client that half-closes may not get its answer.
  return { finish: () => socket.write(body.slice(10)), answer };
}

for (const target of ['npm', 'node'] as const) {
  test(`SIGTERM to the ${target} process of \`npm start\`: in-flight requests finish, exit 0, nothing left running`, async () => {
    const { npm, port, output } = await npmStart();
    const [node] = await children(npm.pid!);
    assert.ok(node, 'npm runs the server as its direct child (no shell in between)');
    assert.match((await readFile(`/proc/${node}/cmdline`, 'utf8')).replace(/\0/g, ' '), /^node .*dist\/main\.js/, 'plain node on the compiled server');
    const inFlight = halfSentRegistration(port);
    await new Promise((r) => setTimeout(r, 200));
    process.kill(target === 'npm' ? npm.pid! : node!, 'SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    inFlight.finish();
    assert.is(await inFlight.answer, 201, 'the request in flight was answered');
    const [code] = npm.exitCode === null ? ((await once(npm, 'exit')) as [number | null]) : [npm.exitCode];
    assert.is(code, 0, output());
    for (let i = 0; i < 40 && alive(node!); i++) await new Promise((r) => setTimeout(r, 50));
    assert.not.ok(alive(node!), 'no server left running');
  });
}

test.run();
