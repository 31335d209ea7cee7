import { spawn, execFileSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compiledServer, startChild } from './child.ts';
import { median } from './load.ts';
import { freePort } from './ports.ts';

/** Medians of one node binary's cold starts: the bare server's and ours, started the same way. */
export interface ColdStarts {
  version: string;
  bareMs: number;
  bareRssBytes: number;
  oursMs: number;
  /** Resident memory once settled, and the most the process had (`VmHWM`). */
  rssBytes: number;
  peakBytes: number;
}

/** One boot: `node <script>` until /api/ping answers, then its memory after `settleSeconds`. */
async function bootOnce(
  node: string,
  script: string,
  settleSeconds: number,
): Promise<{ ms: number; rss: number; peak: number }> {
  const port = await freePort();
  const accounts = join(await mkdtemp(join(tmpdir(), 'cold-')), 'accounts.json');
  const started = performance.now();
  const child = await startChild(
    [script],
    { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ACCOUNTS_FILE: accounts },
    `http://127.0.0.1:${port}/api/ping`,
    60_000,
    node,
  );
  const ms = performance.now() - started;
  try {
    await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000));
    return { ms, rss: await child.rss(), peak: await child.peakRss() };
  } finally {
    await child.stop();
  }
}

/**
 * Cold starts of the compiled server (`node dist/main.js`, as the README runs it) beside a
 * bare node:http server started the same way, alternating, `runs` of each per node binary;
 * medians of the time from spawning node to the first answer of /api/ping, and of memory.
 *
 * @example
 * const [node20] = await measureColdStarts({ nodes: [process.execPath], runs: 5, settleSeconds: 10 });
 */
export async function measureColdStarts(options: {
  nodes: string[];
  runs: number;
  settleSeconds: number;
}): Promise<ColdStarts[]> {
  compiledServer(); // builds dist/ when missing or stale; it is then started as plain `node dist/main.js`
  const rows: ColdStarts[] = [];
  for (const node of options.nodes) {
    const bare: Awaited<ReturnType<typeof bootOnce>>[] = [];
    const ours: Awaited<ReturnType<typeof bootOnce>>[] = [];
    for (let run = 0; run < options.runs; run++) {
      bare.push(await bootOnce(node, 'scripts/bench/bare-server.cjs', options.settleSeconds));
      ours.push(await bootOnce(node, 'dist/main.js', options.settleSeconds));
    }
    rows.push({
      version: execFileSync(node, ['--version'], { encoding: 'utf8' }).trim(),
      bareMs: median(bare.map((b) => b.ms)),
      bareRssBytes: median(bare.map((b) => b.rss)),
      oursMs: median(ours.map((b) => b.ms)),
      rssBytes: median(ours.map((b) => b.rss)),
      peakBytes: median(ours.map((b) => b.peak)),
    });
  }
  return rows;
}

/**
 * `npm start` as a newcomer types it, until /api/ping answers: npm itself, the prestart check
 * that dist/ is current, then the server. Median of `runs`.
 *
 * @example
 * await measureNpmStart(5); // 650.3
 */
export async function measureNpmStart(runs: number): Promise<number> {
  compiledServer(); // built beforehand: the check then finds dist/ current, as after `npm run build`
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const port = await freePort();
    const accounts = join(await mkdtemp(join(tmpdir(), 'cold-')), 'accounts.json');
    const started = performance.now();
    const npm = spawn('npm', ['start', '--silent'], {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ACCOUNTS_FILE: accounts },
      stdio: 'ignore',
      detached: true,
    });
    try {
      for (;;) {
        if (npm.exitCode !== null) throw new Error(`npm start exited with ${npm.exitCode}`);
        try {
          await (await fetch(`http://127.0.0.1:${port}/api/ping`)).arrayBuffer();
          break;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      }
      times.push(performance.now() - started);
    } finally {
      // npm runs the server in a child of its own: the whole process group goes.
      process.kill(-npm.pid!, 'SIGKILL');
    }
  }
  return median(times);
}
