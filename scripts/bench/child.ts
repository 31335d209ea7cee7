import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.ts';

/** A server running in a child process of its own, so that it has a core to itself. */
export interface Child {
  url: string;
  process: ChildProcess;
  /** The last 64 KB the process printed (stdout and stderr): an access log at full load must not fill the bench's memory. */
  output(): string;
  /** Resident memory of the process in bytes (Linux `/proc`). */
  rss(): Promise<number>;
  /** The most resident memory the process has had, in bytes (`VmHWM`). */
  peakRss(): Promise<number>;
  /** Sets the peak (`VmHWM`) back to the process's RSS now (Linux `clear_refs`), so that `peakRss` reads what came after. */
  resetPeakRss(): Promise<void>;
  /** CPU time the process has spent so far, user and system, every thread, in seconds (Linux `/proc`). */
  cpuSeconds(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * The V8 flags the README starts the server with (docs/performance.md, "Idle collections"). A
 * baseline it is compared with gets them too: it is started the same way.
 */
export const NODE_FLAGS = ['--no-memory-reducer'];

/**
 * The arguments that start our server as the README says to run it in production: node on
 * the compiled JavaScript with the README's flags (built first when dist/ is missing or stale).
 *
 * @example
 * await startChild(compiledServer(), env);
 */
export function compiledServer(...nodeOptions: string[]): string[] {
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { stdio: 'inherit' });
  return [...nodeOptions, ...NODE_FLAGS, '--enable-source-maps', 'dist/main.js'];
}

/**
 * Pins process `pid` and every thread it has (later ones inherit it) to CPU `core` (Linux
 * `taskset`), so that a server and the load driving it never share a core: the CPU time a
 * request costs then moves less between runs on a shared machine.
 *
 * @example
 * pinToCore(child.process.pid!, 1);
 */
export function pinToCore(pid: number, core: number): void {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(core), String(pid)], { stdio: 'ignore' });
  } catch (error) {
    throw new Error(
      `cannot pin process ${pid} to CPU ${core} with taskset (util-linux, two cores needed): ${(error as Error).message}`,
    );
  }
}

const OUTPUT_TAIL = 65_536;

/**
 * Starts `node args…` (this node, or the binary `node` names) and resolves once it is reachable: at the URL it prints on a
 * `listening on <url>` line, or at `url` when given (servers that print nothing useful).
 *
 * @example
 * const ours = await startChild(compiledServer(), { PORT: '0', HOST: '127.0.0.1' });
 */
export async function startChild(
  args: string[],
  env: Record<string, string>,
  url?: string,
  timeoutMs = 600_000,
  node = process.execPath,
): Promise<Child> {
  const child = spawn(node, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk;
    if (output.length > OUTPUT_TAIL) output = output.slice(-OUTPUT_TAIL);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const deadline = Date.now() + timeoutMs;
  let found = url;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited: ${output.slice(-2000)}`);
    if (Date.now() > deadline) throw new Error(`${args.join(' ')} did not start in time: ${output.slice(-2000)}`);
    found ??= /listening on (http:\/\/\S+)/.exec(output)?.[1];
    if (found && (await reachable(found))) break;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return {
    url: found,
    process: child,
    output: () => output,
    rss: async () =>
      Number(/VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) * 1024,
    peakRss: async () =>
      Number(/VmHWM:\s+(\d+) kB/.exec(await readFile(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) * 1024,
    resetPeakRss: () => writeFile(`/proc/${child.pid}/clear_refs`, '5'),
    cpuSeconds: () => cpuSecondsOf(child.pid!),
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
  };
}

/** Clock ticks per second of `/proc/<pid>/stat`'s times (USER_HZ, 100 on Linux). */
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** utime + stime of a process: fields 14 and 15 of `/proc/<pid>/stat`, counted after the command name. */
async function cpuSecondsOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

async function reachable(url: string): Promise<boolean> {
  try {
    await (await fetch(url)).arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

/**
 * The compiled server on a free loopback port, serving `dataDir` with its accounts in a new
 * folder, configured by `env`; resolves once it answers `/api/ping`.
 *
 * @example
 * const { server, base } = await startCompiled('var/bench/catalog-10000', { RATE_LIMIT: 'off' });
 */
export async function startCompiled(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<{ server: Child; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const accounts = join(await mkdtemp(join(tmpdir(), 'bench-server-')), 'accounts.json');
  const settings = { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ACCOUNTS_FILE: accounts, ...env };
  return { server: await startChild(compiledServer(), settings, `${base}/api/ping`), base };
}
