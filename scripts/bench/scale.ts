import { access, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateCatalog, writeCatalog } from '../lib/generate-catalog.ts';
import { compiledServer, startChild, type Child } from './child.ts';
import { drive, type Measure } from './load.ts';
import { freePort } from './ports.ts';

/** Records per actor in a generated catalog (every family is sized from the actors). */
const RECORDS_PER_ACTOR = 1 + 1 + 1 + 1 / 8 + 0.75 + 1 + 1 / 7;

export interface ScaleOptions {
  sizes: number[];
  seconds: number;
  connections: number;
  /** How long the server idles after booting before its memory is read (V8 gives back boot garbage after a few seconds). */
  settleSeconds: number;
  /** Where generated catalogs are kept between runs (regenerated when missing). */
  workDir: string;
  progress: (line: string) => void;
}

/** One query's p99 as deployed (response cache on) and with every request computed (cache off). */
export interface Both {
  served: Measure;
  computed: Measure;
}

/** Boot and memory of one server: until it answers, resident memory once settled, and the peak. */
export interface BootFigures {
  readyMs: number;
  rssBytes: number;
  peakBytes: number;
}

export interface ScaleRow extends BootFigures {
  records: number;
  filtered: Both;
  deepPage: Both;
  deepPageNumber: number;
  search: Both;
  /** The two words searched for, and how many records they match. */
  searchWords: string;
  searchMatches: number;
}

/** A generated catalog of about `records` records under `workDir`, made once per size. */
export async function catalogOf(records: number, workDir: string, progress: (line: string) => void): Promise<string> {
  const dir = join(workDir, `catalog-${records}`);
  const marker = join(dir, '.complete');
  try {
    await access(marker);
    return dir;
  } catch {
    progress(`generating a catalog of ${records.toLocaleString('en-US')} records`);
  }
  await rm(dir, { recursive: true, force: true });
  await writeCatalog(dir, generateCatalog({ actors: Math.max(1, Math.round(records / RECORDS_PER_ACTOR)), seed: 42 }));
  await writeFile(marker, '');
  return dir;
}

async function rowsOf(dir: string, file: string): Promise<Record<string, unknown>[]> {
  return JSON.parse(await readFile(join(dir, file), 'utf8')) as Record<string, unknown>[];
}

/**
 * Our server on `dir`, started as deployed (limits on, compiled), with the time until it
 * answers; `cacheMb: '0'` turns the response cache off. 1M records need a larger heap than
 * Node's default, which docs/performance.md tells such deployments to set.
 */
async function boot(
  dir: string,
  cacheMb?: string,
  records = 0,
): Promise<{ server: Child; base: string; readyMs: number }> {
  const port = await freePort();
  // Node's default heap holds catalogs up to a few hundred thousand records; a million needs more, as docs/performance.md says.
  const args = compiledServer(...(records >= 1_000_000 ? ['--max-old-space-size=8192'] : []));
  const started = performance.now();
  const server = await startChild(
    args,
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      RATE_LIMIT_ANONYMOUS: '1000000000',
      LOG_LEVEL: 'warn',
      ...(cacheMb ? { RESPONSE_CACHE_MB: cacheMb } : {}),
    },
    `http://127.0.0.1:${port}/api/ping`,
  );
  return { server, base: `http://127.0.0.1:${port}`, readyMs: performance.now() - started };
}

/** Boots our server on `dir` and reads its memory once it has idled `settleSeconds`. */
async function bootFigures(server: Child, readyMs: number, settleSeconds: number): Promise<BootFigures> {
  await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000));
  return { readyMs, rssBytes: await server.rss(), peakBytes: await server.peakRss() };
}

/**
 * For each size: generates a catalog and boots our server on it twice. As deployed (response
 * cache on) it reports the time until it answers, its resident memory and latency under load;
 * with the cache off, latency again with every request running its query. Queries: a filter
 * of two conditions, a page deep in a sorted list and a two-word search, each warmed up for
 * a second before it is measured.
 *
 * @example
 * const rows = await measureScale({ sizes: [10_000], seconds: 5, connections: 50, workDir: 'var/bench', progress: console.log });
 */
export async function measureScale(options: ScaleOptions): Promise<ScaleRow[]> {
  const rows: ScaleRow[] = [];
  const load = { seconds: options.seconds, connections: options.connections };
  const warmup = { seconds: 1, connections: options.connections };
  for (const records of options.sizes) {
    const label = records.toLocaleString('en-US');
    const dir = await catalogOf(records, options.workDir, options.progress);
    const episode = (await rowsOf(dir, 'episodes.json'))[0]!;
    const title = String(
      (await rowsOf(dir, 'translations/episodes_translations.json')).find((t) => t.episode_uuid === episode.uuid)!
        .title,
    );
    const searchWords = title.toLowerCase().split(' ').slice(0, 2).join(' ');
    const deepPageNumber = Math.max(1, Math.floor((await rowsOf(dir, 'soundtracks.json')).length / 10 / 2));
    const paths = {
      filtered: `/api/v1/episodes?season=${String(episode.season).split('/').pop()}&duration=%3E%3D${episode.duration}`,
      deepPage: `/api/v1/soundtracks?sort=duration,desc&page=${deepPageNumber}`,
      search: `/api/v1/episodes?q=${encodeURIComponent(searchWords)}`,
    };
    const measured: Record<string, Partial<Both>> = { filtered: {}, deepPage: {}, search: {} };
    let figures: BootFigures = { readyMs: 0, rssBytes: 0, peakBytes: 0 };
    let searchMatches = 0;
    for (const mode of ['served', 'computed'] as const) {
      options.progress(`${label} records: booting (response cache ${mode === 'served' ? 'on' : 'off'})`);
      const started = await boot(dir, mode === 'computed' ? '0' : undefined, records);
      try {
        if (mode === 'served') {
          figures = await bootFigures(started.server, started.readyMs, options.settleSeconds);
          searchMatches = Number((await fetch(started.base + paths.search)).headers.get('x-pagination-item-total'));
        }
        for (const [name, path] of Object.entries(paths)) {
          options.progress(`${label} records, cache ${mode === 'served' ? 'on' : 'off'}: ${name} under load`);
          await drive(started.base + path, {}, 200, warmup);
          measured[name]![mode] = await drive(started.base + path, {}, 200, load);
        }
      } finally {
        await started.server.stop();
      }
    }
    const both = (name: string) => measured[name] as Both;
    rows.push({
      records,
      ...figures,
      filtered: both('filtered'),
      deepPage: both('deepPage'),
      deepPageNumber,
      search: both('search'),
      searchWords,
      searchMatches,
    });
  }
  return rows;
}
