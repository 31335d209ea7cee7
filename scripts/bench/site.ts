import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchChromium } from '../lib/chromium.ts';
import { staticHost } from '../lib/static-host.ts';
import { compiledServer, startChild } from './child.ts';
import { scenariosFor, type Request } from './scenarios.ts';

/** What `npm run bench:site` measures of the static site of one catalog. */
export interface SiteFigures {
  exportMs: number;
  files: number;
  siteBytes: number;
  /** The worker's code and the catalog it loads (manifest and rows), gzipped. */
  workerAndCatalogGzip: number;
  /** Cold page to its first API answer, one per fresh browser profile. */
  coldMs: number[];
  /** Each request of the read mix, asked in the page: answered by the worker, by the compiled server. */
  worker: number[];
  server: number[];
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
/** The `p`-th percentile of `values`. */
export const percentile = (values: readonly number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;
export { median };

async function filesUnder(dir: string): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    found.set(relative(dir, path), (await stat(path)).size);
  }
  return found;
}

/** Exports `data` with `npm run export-site`'s script into a new folder, timed from spawning node to its exit. */
function exportOnce(data: string, out: string): number {
  const started = performance.now();
  const ran = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/export-site.ts', '--out', out], {
    env: { ...process.env, DATA_DIR: data, ACCOUNTS_FILE: join(out, '..', 'accounts', 'accounts.json') },
    encoding: 'utf8',
  });
  if (ran.status !== 0) throw new Error(`export-site failed: ${ran.stderr}`);
  return performance.now() - started;
}

/** A page of the site that asks the API as it loads, before the worker controls it, and notes when the answer came. */
const COLD_PAGE = `<!doctype html><script src="/register.js"></script>
<script>fetch('/api/v1/actors?size=5').then((r) => r.text()).then(() => { window.firstAnswer = performance.now(); });</script>`;

/**
 * Measures the static site of `data`: the export (median of `runs`), its size, the worker and
 * catalog a browser downloads (gzipped), a cold page's first API answer (`runs` fresh profiles),
 * and the read mix of `npm run bench` asked `rounds` times in one page of the site, of its
 * worker and of the compiled server on loopback, in turn.
 */
export async function measureSite(data: string, runs: number, rounds: number): Promise<SiteFigures> {
  const work = await mkdtemp(join(tmpdir(), 'bench-site-'));
  const exports = Array.from({ length: runs }, (_, i) => exportOnce(data, join(work, `site-${i}`)));
  const dir = join(work, 'site-0');
  const files = await filesUnder(dir);
  const manifest = JSON.parse(await readFile(join(dir, 'site/manifest.json'), 'utf8')) as {
    families: Record<string, string[]>;
  };
  let gzipped = gzipSync(await readFile(join(dir, 'sw.js'))).length;
  for (const file of ['site/manifest.json', ...Object.values(manifest.families).flat()])
    gzipped += gzipSync(await readFile(join(dir, file))).length;
  await writeFile(join(dir, 'cold.html'), COLD_PAGE);

  const host = await staticHost(dir);
  const server = await startChild(compiledServer(), {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: data,
    RATE_LIMIT: 'off',
    ACCOUNTS_FILE: join(work, 'server', 'accounts.json'),
  });
  try {
    const coldMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      const context = await launchChromium(join(work, `profile-${i}`));
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(`${host.url}/cold.html`);
      await page.waitForFunction('window.firstAnswer !== undefined', undefined, { timeout: 30_000 });
      coldMs.push(Number(await page.evaluate('window.firstAnswer')));
      await context.close();
    }
    const context = await launchChromium(join(work, 'profile-mix'));
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${host.url}/`);
    await page.evaluate('siteReady');
    // The server is asked from a page of its own: the same origin, as the site's page asks its worker (no CORS preflight).
    const serverPage = await context.newPage();
    await serverPage.goto(`${server.url!}/api/docs`);
    const mix: Request[] = (await scenariosFor(data)).map((scenario) => scenario.ours);
    const timed = (target: 'worker' | 'server') =>
      (target === 'worker' ? page : serverPage).evaluate(
        async ({ mix, rounds }) => {
          const times: number[] = [];
          for (let round = 0; round < rounds; round++)
            for (const { path, headers, method, body } of mix) {
              const started = performance.now();
              const response = await fetch(path, {
                headers,
                method: method ?? 'GET',
                ...(body ? { body } : {}),
              });
              await response.text();
              times.push(performance.now() - started);
            }
          return times;
        },
        { mix, rounds },
      );
    // Warmed alike, then measured in turn, slice by slice.
    await timed('worker');
    await timed('server');
    const worker: number[] = [];
    const direct: number[] = [];
    for (let slice = 0; slice < 5; slice++) {
      worker.push(...(await timed('worker')));
      direct.push(...(await timed('server')));
    }
    await context.close();
    return {
      exportMs: median(exports),
      files: files.size,
      siteBytes: [...files.values()].reduce((sum, size) => sum + size, 0),
      workerAndCatalogGzip: gzipped,
      coldMs,
      worker,
      server: direct,
    };
  } finally {
    await host.close();
    await server.stop();
  }
}
