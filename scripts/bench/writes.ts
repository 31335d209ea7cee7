import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, passwordHasher } from '../../src/accounts/open.ts';
import { createAccount, readRegisterBody } from '../../src/accounts/service.ts';
import { createLogger } from '../../src/config/logger.ts';
import { compiledServer, startChild, type Child } from './child.ts';
import { drive, median, type Measure } from './load.ts';
import { freePort } from './ports.ts';
import { catalogOf } from './scale.ts';
import { nthWrite, send, startWriter } from './write-mix.ts';

export interface WritesOptions {
  /** Records of the generated catalog the write latency is measured on. */
  records: number;
  /** Writes timed, one after another. */
  writes: number;
  /** Writes piled up on a fresh overlay, each carrying a 200-character value (1,500: the first 100 against the last 100). */
  pileUp: number;
  /** Rounds of reads alone and reads beside writes, alternated. */
  rounds: number;
  seconds: number;
  connections: number;
  writesPerSecond: number;
  workDir: string;
  progress: (line: string) => void;
}

export interface LatencyFigures {
  records: number;
  writes: number;
  p50: number;
  p99: number;
  max: number;
  /** Server CPU time (every thread, user and system) per timed write, in ms: what a write takes from the readers, less noisy than req/s. */
  cpuMs: number;
  overlayBytes: number;
}

export interface PileUpFigures {
  records: number;
  writes: number;
  /** p99 of the first 100 writes and of the last 100, in ms. */
  firstP99: number;
  lastP99: number;
  overlayBytes: number;
}

export interface UnderWritesFigures {
  path: string;
  alone: Measure[];
  beside: Measure[];
  /** Writes answered 2xx during the rounds beside writes, per second. */
  writeRate: number;
  /** median(beside req/s) ÷ median(alone req/s). */
  ratio: number;
}

/** The compiled server as deployed (limits on, writes on) on `dataDir`, with a MAINTAINER token; `extra` adds to its environment. */
export async function curatedServer(
  dataDir: string | undefined,
  progress: (line: string) => void,
  extra: Record<string, string> = {},
): Promise<{ server: Child; base: string; token: string; folder: string }> {
  const folder = await mkdtemp(join(tmpdir(), 'bench-writes-'));
  const env = {
    ACCOUNTS_FILE: join(folder, 'accounts.json'),
    ...(dataDir ? { DATA_DIR: dataDir } : {}),
    RATE_LIMIT_MAINTAINER: '100000000',
    RATE_LIMIT_ANONYMOUS: '1000000000',
    ...extra,
  };
  progress('creating a MAINTAINER account');
  // As `npm run accounts -- create --role MAINTAINER` does it, straight into the server's file.
  const store = await openStore(
    { kind: 'file', file: env.ACCOUNTS_FILE },
    createLogger({ level: 'warn', format: 'text' }),
  );
  const body = readRegisterBody({
    username: 'bench',
    email: 'bench@example.org',
    password: 'the bench password',
    first_name: 'Bench',
    last_name: 'Mark',
    role: 'MAINTAINER',
  });
  await createAccount(store, body, passwordHasher({ scryptN: 2 ** 17, hashes: { concurrent: 1, queued: 0 } }));
  store.close();
  const port = await freePort();
  const server = await startChild(
    compiledServer(),
    { ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    `http://127.0.0.1:${port}/api/ping`,
  );
  const base = `http://127.0.0.1:${port}`;
  const signIn = await fetch(`${base}/api/v1/auth/authenticate`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'bench', password: 'the bench password' }),
  });
  const { token } = (await signIn.json()) as { token: string };
  return { server, base, token, folder };
}

async function uuids(base: string, family: string): Promise<string[]> {
  return ((await (await fetch(`${base}/api/v1/${family}?size=50`)).json()) as { uuid: string }[]).map(
    (record) => record.uuid,
  );
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/**
 * Times `writes` writes, one after another, on a generated catalog of `records` records, from
 * the request to the whole answer, as a client sees it: each is staged, checked, made durable
 * in the overlay file and served before it is answered.
 */
export async function measureWriteLatency(options: WritesOptions): Promise<LatencyFigures> {
  const dir = await catalogOf(options.records, options.workDir, options.progress);
  const { server, base, token, folder } = await curatedServer(dir, options.progress);
  try {
    const [actors, episodes] = [await uuids(base, 'actors'), await uuids(base, 'episodes')];
    for (let n = 0; n < 10; n++) await send(base, token, nthWrite(n, actors, episodes));
    options.progress(`${options.records.toLocaleString('en-US')} records: timing ${options.writes} writes`);
    const times: number[] = [];
    const cpuBefore = await server.cpuSeconds();
    for (let n = 10; n < 10 + options.writes; n++) {
      const started = performance.now();
      await send(base, token, nthWrite(n, actors, episodes));
      times.push(performance.now() - started);
    }
    const cpuMs = (((await server.cpuSeconds()) - cpuBefore) * 1000) / options.writes;
    times.sort((a, b) => a - b);
    const overlayBytes = (await stat(join(folder, 'catalog-overlay.json'))).size;
    return {
      records: options.records,
      writes: options.writes,
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      max: times.at(-1)!,
      cpuMs,
      overlayBytes,
    };
  } finally {
    await server.stop();
    await rm(folder, { recursive: true, force: true });
  }
}

/** How many writes open and close the pile-up: the p99 of the first of them is held against that of the last. */
export const PILE_WINDOW = 100;
/** Writes sent before the pile-up is timed. */
const PILE_WARM_UP = 10;

/**
 * Times `pileUp` PATCHes one after another on a fresh overlay (after 10 untimed), each setting an actor's
 * nationality to a new 200-character value, so the overlay grows by a few KB a write: the p99
 * of the last 100 against that of the first 100 says whether a write costs more as the overlay
 * grows.
 */
export async function measureWritePileUp(options: WritesOptions): Promise<PileUpFigures> {
  const dir = await catalogOf(options.records, options.workDir, options.progress);
  const { server, base, token, folder } = await curatedServer(dir, options.progress);
  try {
    const actors = await uuids(base, 'actors');
    const nth = (n: number) => ({
      method: 'PATCH',
      path: `/api/v1/actors/${actors[n % actors.length]}`,
      body: { nationality: `${n} `.padEnd(200, 'abcdefghijklmnopqrstuvwxyz') },
    });
    // Untimed, as for the latency: the first writes of a process also compile its code.
    for (let n = 0; n < PILE_WARM_UP; n++) await send(base, token, nth(n));
    options.progress(
      `${options.records.toLocaleString('en-US')} records: piling up ${options.pileUp} writes of 200 characters`,
    );
    const times: number[] = [];
    for (let n = PILE_WARM_UP; n < PILE_WARM_UP + options.pileUp; n++) {
      const started = performance.now();
      await send(base, token, nth(n));
      times.push(performance.now() - started);
    }
    const p99 = (list: number[]) =>
      percentile(
        [...list].sort((a, b) => a - b),
        99,
      );
    const overlayBytes = (await stat(join(folder, 'catalog-overlay.json'))).size;
    return {
      records: options.records,
      writes: options.pileUp,
      firstP99: p99(times.slice(0, PILE_WINDOW)),
      lastP99: p99(times.slice(-PILE_WINDOW)),
      overlayBytes,
    };
  } finally {
    await server.stop();
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * Reads of `paths` on the embedded catalog (the default configuration), `rounds` times alone
 * and `rounds` times while one client writes `writesPerSecond` writes a second, alternated;
 * the ratio of the medians says what the writes cost the readers.
 */
export async function measureReadsUnderWrites(paths: string[], options: WritesOptions): Promise<UnderWritesFigures[]> {
  const { server, base, token, folder } = await curatedServer(undefined, options.progress);
  try {
    const [actors, episodes] = [await uuids(base, 'actors'), await uuids(base, 'episodes')];
    const results: UnderWritesFigures[] = [];
    let n = 0;
    // Untimed, as for the latency: the first writes of a process load and compile the write path's code.
    for (; n < 10; n++) await send(base, token, nthWrite(n, actors, episodes));
    for (const path of paths) {
      const alone: Measure[] = [];
      const beside: Measure[] = [];
      let written = 0;
      /** One round of reads, with the server's CPU time a read answered (every thread, user and system). */
      const reads = async (): Promise<Measure> => {
        const before = await server.cpuSeconds();
        const measure = await drive(base + path, {}, 200, {
          seconds: options.seconds,
          connections: options.connections,
        });
        return { ...measure, cpuUs: (((await server.cpuSeconds()) - before) * 1e6) / measure.requests };
      };
      /** Runs `reading` while a writer of its own sends writes at the pace asked, counting them in `written`. */
      const besideWriter = async <T>(reading: () => Promise<T>): Promise<T> => {
        const writer = await startWriter({
          base,
          token,
          actors,
          episodes,
          from: n,
          perSecond: options.writesPerSecond,
        });
        writer.go();
        const result = await reading();
        const count = await writer.stop();
        n += count;
        written += count;
        return result;
      };
      // Untimed, a round beside writes: ten writes leave the write path's code cold, and its
      // compilation in the first timed round counted against the readers.
      await besideWriter(() =>
        drive(base + path, {}, 200, { seconds: options.seconds, connections: options.connections }),
      );
      written = 0;
      for (let round = 0; round < options.rounds; round++) {
        options.progress(
          `reads of ${path}, round ${round + 1}: alone, then beside ${options.writesPerSecond} writes/s`,
        );
        alone.push(await reads());
        beside.push(await besideWriter(reads));
      }
      const rps = (list: Measure[]) => median(list.map((m) => m.rps));
      results.push({
        path,
        alone,
        beside,
        writeRate: written / (options.rounds * options.seconds),
        ratio: rps(beside) / rps(alone),
      });
    }
    return results;
  } finally {
    await server.stop();
    await rm(folder, { recursive: true, force: true });
  }
}
