import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { compiledServer, startChild, type Child } from './child.ts';
import { HOSTILE_CLIENTS, HOSTILE_QUERIES, hostileRequest } from './hostile.ts';
import { freePort } from './ports.ts';

/**
 * The traffic of one soak: made-up searches (empty answers), unknown uuids (404s), unknown
 * parameters (400s), or a mix of these with pages found at new URLs each asked twice (which
 * fill the response cache) and repeated reads, half of them with a BASIC token; or hostile
 * GraphQL from 4 clients (`HOSTILE_CLIENTS`): each of `HOSTILE_QUERIES` as a new text in turn
 * (refused) and an accepted costly one (estimated at 4,051, run through the costly gate).
 */
export type SoakKind = 'unique searches' | 'unknown uuids' | 'unknown parameters' | 'mixed' | 'hostile GraphQL';

export const SOAK_KINDS: SoakKind[] = [
  'unique searches',
  'unknown uuids',
  'unknown parameters',
  'mixed',
  'hostile GraphQL',
];

/** An accepted GraphQL query estimated at 4,051: costly (1,000 or more), under the cost limit. */
const COSTLY_QUERY = '{ seasons(size: 50) { items { title episodes { title season { title episodes { title } } } } } }';

export interface SoakOptions {
  kind: SoakKind;
  cacheMb: number;
  seconds: number;
  sampleSeconds: number;
  connections: number;
  dataDir: string;
  progress: (line: string) => void;
}

/** Memory after a collection, as the server itself reads it. */
export interface HeapFigures {
  rss: number;
  heapUsed: number;
  external: number;
}

export interface SoakResult {
  kind: SoakKind;
  cacheMb: number;
  requests: number;
  /** Answers that were not what the kind expects (a 5xx, a 429, a socket error). */
  wrong: number;
  bootRss: number;
  /** RSS every `sampleSeconds`, traffic running. */
  samples: number[];
  /** The most resident memory the process had at any moment of the traffic (`VmHWM`). */
  peak: number;
  afterGc: HeapFigures & { heapTotal?: number };
}

/** The budgets raised so that nothing is refused: the soak measures memory, not the 429. */
const RAISED = { RATE_LIMIT_ANONYMOUS: '1000000000', RATE_LIMIT_BASIC: '1000000000' };

async function records(dir: string, file: string): Promise<{ uuid: string }[]> {
  return JSON.parse(await readFile(join(dir, file), 'utf8')) as { uuid: string }[];
}

/** One request of a soak: a GET of `path`, or a POST of `query` to it when one is given. */
interface SoakRequest {
  path: string;
  token: boolean;
  query?: string;
}

/** The next request of `kind`; `n` counts requests, so every path can be new. */
async function trafficOf(kind: SoakKind, dataDir: string): Promise<(n: number) => SoakRequest> {
  const actors = await records(dataDir, 'actors.json');
  const episodes = await records(dataDir, 'episodes.json');
  const search = (n: number) => `/api/v1/episodes?q=w${n.toString(36)}`;
  const missing = () => `/api/v1/actors/${randomUUID()}`;
  const unknown = (n: number) => `/api/v1/actors?x${n.toString(36)}=1`;
  if (kind === 'unique searches') return (n) => ({ path: search(n), token: false });
  if (kind === 'unknown uuids') return () => ({ path: missing(), token: false });
  if (kind === 'unknown parameters') return (n) => ({ path: unknown(n), token: false });
  if (kind === 'hostile GraphQL') {
    const queries = [...Object.values(HOSTILE_QUERIES), () => COSTLY_QUERY];
    return (n) => ({ path: '/api/graphql', token: false, query: queries[n % queries.length]!(n) });
  }
  return (n) => {
    const token = n % 2 === 0;
    switch (n % 5) {
      case 0:
        return { path: search(n), token };
      case 1:
        return { path: missing(), token };
      case 2: {
        // A page that is found, at a new URL asked twice (n ending in 2, then in 7): kept from
        // its second request on, so these fill the response cache.
        const m = Math.floor(n / 10);
        return {
          path: `/api/v1/episodes?duration=%3E${m % 2_000_000}&size=${(m % 24) + 1}&page=${(m % 3) + 1}`,
          token,
        };
      }
      case 3:
        return {
          path: `/api/v1/actors/${actors[n % actors.length]!.uuid}?language=${['en-US', 'pt-BR'][n % 2]}`,
          token,
        };
      default:
        return { path: `/api/v1/episodes/${episodes[n % episodes.length]!.uuid}`, token };
    }
  };
}

/** A token of a fresh BASIC account on `origin`. */
async function basicToken(origin: string): Promise<string> {
  const body = {
    first_name: 'Soak',
    last_name: 'Test',
    username: 'soak_reader',
    email: 'soak@example.org',
    password: 'a soak test passphrase',
  };
  const response = await fetch(`${origin}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201)
    throw new Error(`registering the soak account: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/**
 * Collects garbage in the server (started with heap-probe.mjs preloaded) and reads its memory.
 *
 * @example
 * const { rss, heapUsed } = await heapAfterGc(server);
 */
export async function heapAfterGc(server: Child): Promise<HeapFigures> {
  let said = '';
  const listen = (chunk: Buffer) => (said += chunk);
  server.process.stderr!.on('data', listen);
  try {
    server.process.kill('SIGUSR2');
    for (let i = 0; i < 100; i++) {
      const line = /heap-probe (\{.*\})/.exec(said)?.[1];
      if (line) return JSON.parse(line) as HeapFigures;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    server.process.stderr!.off('data', listen);
  }
  throw new Error('the server did not report its heap');
}

/**
 * Starts the compiled server in the default configuration (limits on, budgets raised, the
 * response cache at `cacheMb`), drives it with `kind` traffic over `connections` (hostile GraphQL: 4) for
 * `seconds`, reading its RSS every `sampleSeconds`, then reads its memory after a collection.
 *
 * @example
 * const result = await soak({ kind: 'unique searches', cacheMb: 64, seconds: 600, sampleSeconds: 30, connections: 20, dataDir: './data', progress: console.log });
 */
export async function soak(options: SoakOptions): Promise<SoakResult> {
  const { kind, cacheMb, seconds, sampleSeconds, connections, dataDir, progress } = options;
  const port = await freePort();
  const work = await mkdtemp(join(tmpdir(), 'soak-'));
  const env = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ACCOUNTS_FILE: join(work, 'accounts.json'),
    RESPONSE_CACHE_MB: String(cacheMb),
    ...RAISED,
  };
  const server = await startChild(
    compiledServer('--expose-gc', '--import', './scripts/bench/heap-probe.mjs'),
    env,
    `http://127.0.0.1:${port}/api/ping`,
  );
  try {
    const origin = `http://127.0.0.1:${port}`;
    const authorization = `Bearer ${await basicToken(origin)}`;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const bootRss = await server.rss();
    // The peak from here on: the registration's password hash (128 MiB of scrypt) is not the traffic's.
    await server.resetPeakRss();
    const next = await trafficOf(kind, dataDir);
    let n = 0;
    const samples: number[] = [];
    const sampler = setInterval(() => {
      void server.rss().then((rss) => {
        samples.push(rss);
        progress(
          `${kind}, cache ${cacheMb} MB: ${samples.length * sampleSeconds} s, ${n.toLocaleString('en-US')} requests, RSS ${Math.round(rss / 2 ** 20)} MB`,
        );
      });
    }, sampleSeconds * 1000);
    const result = await autocannon({
      url: origin,
      connections: kind === 'hostile GraphQL' ? HOSTILE_CLIENTS : connections,
      duration: seconds,
      requests: [
        {
          setupRequest: (request) => {
            const { path, token, query } = next(n++);
            if (query !== undefined) return { ...request, path, ...hostileRequest(query) };
            return { ...request, path, headers: token ? { ...request.headers, authorization } : request.headers };
          },
        },
      ],
    });
    clearInterval(sampler);
    const peak = await server.peakRss();
    const codes = result.statusCodeStats as unknown as Record<string, { count: number }>;
    const wrong =
      result.errors +
      result.timeouts +
      Object.entries(codes).reduce((sum, [code, { count }]) => sum + (Number(code) >= 429 ? count : 0), 0);
    const afterGc = await heapAfterGc(server);
    return { kind, cacheMb, requests: result.requests.total, wrong, bootRss, samples, peak, afterGc };
  } finally {
    await server.stop();
  }
}

/** RSS may reach boot RSS + the cache's megabytes + this much, and no more (the target). */
export const SOAK_HEADROOM_MB = 48;

/** Whether a soak stayed within the target at its peak and had stopped growing: its last five samples within 5 % of each other. */
export function soakVerdict(result: SoakResult): { bounded: boolean; flat: boolean; ceiling: number } {
  const ceiling = result.bootRss + (result.cacheMb + SOAK_HEADROOM_MB) * 2 ** 20;
  const last = result.samples.slice(-5);
  const flat = last.length === 5 && Math.max(...last) <= Math.min(...last) * 1.05;
  return { bounded: Math.max(result.peak, result.afterGc.rss) <= ceiling, flat, ceiling };
}
