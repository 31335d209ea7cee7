import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readdir, readFile } from 'node:fs/promises';
import { ensureBuilt, START_ARGS } from './start-command.ts';

export const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * Starts the compiled server as `npm start` starts it (or `script`, a TypeScript entry such as
 * `scripts/dev.ts`, through tsx) with extra environment variables.
 */
export function startServer(
  env: Record<string, string>,
  script?: string,
): { child: ChildProcess; output: () => string } {
  let output = '';
  if (script === undefined) ensureBuilt();
  const args = script === undefined ? [...START_ARGS] : ['--import', 'tsx', script];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return { child, output: () => output };
}

/** Runs a script of the project (`scripts/…`, through tsx as `npm run` does) to completion. */
export async function runScript(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

/** Runs the server until it exits by itself; resolves with its exit code and output. */
export async function runToExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const { child, output } = startServer(env);
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, output: output() };
}

/** Waits until the server prints the URL it listens on and returns that URL. */
export async function listeningUrl(
  server: { child: ChildProcess; output: () => string },
  timeoutMs = 20_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const match = /listening on (http:\/\/\S+)/.exec(server.output());
    if (match) return match[1]!;
    if (server.child.exitCode !== null) throw new Error(`server exited: ${server.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`server did not start: ${server.output()}`);
}

/** The pids of `pid`'s child processes, whichever of its threads started them (from /proc). */
export async function childPids(pid: number): Promise<number[]> {
  const threads = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  const lists = await Promise.all(
    threads.map((tid) => readFile(`/proc/${pid}/task/${tid}/children`, 'utf8').catch(() => '')),
  );
  return lists.join(' ').split(/\s+/).filter(Boolean).map(Number);
}

/** Whether a process with this pid still exists (a zombie counts until it is reaped). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits up to `timeoutMs` for `pid` to be gone; true when it is. */
export async function gone(pid: number, timeoutMs = 2000): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; isRunning(pid) && Date.now() < deadline;)
    await new Promise((r) => setTimeout(r, 50));
  return !isRunning(pid);
}
