import { access, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateCatalog, writeCatalog } from '../catalog/generate.ts';
import { startChild } from './child.ts';
import { drive, type Measure } from './load.ts';
import { freePort } from './ports.ts';

/** Records per actor in a generated catalog (every family is sized from the actors). */
const RECORDS_PER_ACTOR = 1 + 1 + 1 + 1 / 8 + 0.75 + 1 + 1 / 7;

export interface ScaleOptions {
  sizes: number[];
  seconds: number;
  connections: number;
  /** Where generated catalogs are kept between runs (regenerated when missing). */
  workDir: string;
  progress: (line: string) => void;
}

export interface ScaleRow {
  records: number;
  bootMs: number;
  rssBytes: number;
  filtered: Measure;
  deepPage: Measure;
  deepPageNumber: number;
}

/** A generated catalog of about `records` records under `workDir`, made once per size. */
async function catalogOf(records: number, workDir: string, progress: (line: string) => void): Promise<string> {
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
 * For each size: generates a catalog, boots our server on it (response cache off, so every
 * request runs its query), and reports the time until it answers, its resident memory, and
 * latency under load (after a one-second warm-up) of a filtered query and of a page deep in
 * a sorted list.
 *
 * @example
 * const rows = await measureScale({ sizes: [10_000], seconds: 5, connections: 50, workDir: 'var/bench', progress: console.log });
 */
export async function measureScale(options: ScaleOptions): Promise<ScaleRow[]> {
  const rows: ScaleRow[] = [];
  for (const records of options.sizes) {
    const dir = await catalogOf(records, options.workDir, options.progress);
    const episode = (await rowsOf(dir, 'episodes.json'))[0]!;
    const soundtracks = (await rowsOf(dir, 'soundtracks.json')).length;
    options.progress(`${records.toLocaleString('en-US')} records: booting`);
    const port = await freePort();
    const started = performance.now();
    const server = await startChild(
      ['--max-old-space-size=16384', '--import', 'tsx', 'src/main.ts'],
      { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, RATE_LIMIT: 'off', LOG_LEVEL: 'warn', RESPONSE_CACHE_MB: '0' },
      `http://127.0.0.1:${port}/api/ping`,
    );
    const bootMs = performance.now() - started;
    try {
      const rssBytes = await server.rss();
      const base = `http://127.0.0.1:${port}`;
      const filtered = `${base}/api/v1/episodes?season=${String(episode.season).split('/').pop()}&duration=%3E%3D${episode.duration}`;
      const deepPageNumber = Math.max(1, Math.floor(soundtracks / 10 / 2));
      const deep = `${base}/api/v1/soundtracks?sort=duration,desc&page=${deepPageNumber}`;
      const load = { seconds: options.seconds, connections: options.connections };
      const warmup = { seconds: 1, connections: options.connections };
      options.progress(`${records.toLocaleString('en-US')} records: filtered query under load`);
      await drive(filtered, {}, 200, warmup);
      const filteredMeasure = await drive(filtered, {}, 200, load);
      options.progress(`${records.toLocaleString('en-US')} records: deep sorted page under load`);
      await drive(deep, {}, 200, warmup);
      const deepMeasure = await drive(deep, {}, 200, load);
      rows.push({ records, bootMs, rssBytes, filtered: filteredMeasure, deepPage: deepMeasure, deepPageNumber });
    } finally {
      await server.stop();
    }
  }
  return rows;
}
