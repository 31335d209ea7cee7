import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { httpCall } from './http-call.ts';

/** A write as the bench sends it. */
export interface BenchWrite {
  method: string;
  path: string;
  body: unknown;
}

/** The n-th write of a repeating mix: an actor's field, an episode's translated title, a new soundtrack. */
export function nthWrite(n: number, actors: string[], episodes: string[]): BenchWrite {
  if (n % 3 === 0)
    return {
      method: 'PATCH',
      path: `/api/v1/actors/${actors[n % actors.length]}`,
      body: { nationality: `Nation ${n}` },
    };
  if (n % 3 === 1)
    return {
      method: 'PATCH',
      path: `/api/v1/episodes/${episodes[n % episodes.length]}`,
      body: { language: 'en-US', title: `Title ${n}` },
    };
  return { method: 'POST', path: '/api/v1/soundtracks', body: { name: `Bench Theme ${n}`, duration: 180_000 + n } };
}

/** Sends `write` as the holder of `token` (`httpCall`); rejects unless it is a 2xx. */
export async function send(base: string, token: string, write: BenchWrite): Promise<number> {
  const { status } = await httpCall(base + write.path, {
    method: write.method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(write.body),
  });
  if (status >= 300) throw new Error(`${write.method} ${write.path}: ${status}`);
  return status;
}

/** What a paced writer sends: the mix from write number `from` on, `perSecond` a second. */
export interface WriterPlan {
  base: string;
  token: string;
  actors: string[];
  episodes: string[];
  from: number;
  perSecond: number;
}

/**
 * Writes `plan`'s mix at its pace in a process of its own (scripts/bench/writer.ts), as another
 * client would: in the process that drives the reads, each write's fetch and timers took turns
 * with autocannon's event loop, and the readers it slowed counted against the server.
 * Resolves once it is loaded; `go` starts the writes, `stop` ends them and resolves with how
 * many were answered.
 */
export async function startWriter(plan: WriterPlan): Promise<{ go: () => void; stop: () => Promise<number> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/writer.ts', JSON.stringify(plan)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  const exited = once(child, 'exit');
  child.stdout.setEncoding('utf8');
  // Loaded before it starts: its start-up takes a core for the better part of a second.
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      if (output.startsWith('ready\n')) resolve();
    });
    void exited.then(() => reject(new Error(`the bench writer stopped before it was ready: ${output}`)));
  });
  return {
    go: () => child.stdin.write('go\n'),
    stop: async () => {
      child.stdin.end();
      const [code] = (await exited) as [number | null];
      const written = Number(/written (\d+)/.exec(output)?.[1]);
      if (code !== 0 || !Number.isInteger(written))
        throw new Error(`the bench writer failed (exit ${code}): ${output}`);
      return written;
    },
  };
}
