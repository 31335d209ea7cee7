import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { pinToCore, type Child } from './child.ts';
import { combine, drive, median, type Measure } from './load.ts';
import { RAISED, startOurs } from './throughput.ts';

/**
 * Hostile GraphQL documents, each within the size and token limits, each made new by `n` (a
 * comment), so that no cache answers them: one field repeated 490 times (about 9 KB), fragments
 * spreading fragments twice 30 deep, and nesting through two-way links past the depth limit.
 */
export const HOSTILE_QUERIES = {
  '490 fields': (n: number) => `{ ${'overview { title } '.repeat(490)}} # ${n}`,
  'fragment explosion': (n: number) =>
    `query { ...F0 } ${Array.from({ length: 30 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`).join(' ')} fragment F30 on Query { overview { title } } # ${n}`,
  'deep nesting': (n: number) =>
    `{ seasons { items { ${'next_season { prev_season { '.repeat(6)}title${' } }'.repeat(6)} } } } # ${n}`,
};

/** The request of a hostile query: a POST as a GraphQL client sends it. */
export const hostileRequest = (query: string) => ({
  method: 'POST' as const,
  headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
  body: JSON.stringify({ query }),
});

/** Clients looping on the 490-field query, and how many of them. */
export const HOSTILE_CLIENTS = 4;
/** Queries sent one after another to read the server's CPU per query. */
export const IN_A_ROW = 50;

export interface HostileOptions {
  dataDir: string;
  rounds: number;
  seconds: number;
  connections: number;
  /** Every server on CPU 1 and the load on CPU 0. */
  pin?: boolean;
  progress: (line: string) => void;
}

export interface HostileFigures {
  /** Server CPU per query of each round's 50 in a row, in ms. */
  cpuMs: number[];
  /** Statuses of every query sent, in a row or looping. */
  statuses: Record<string, number>;
  /** REST reads by uuid alone and beside the looping clients, one of each per round. */
  alone: Measure[];
  beside: Measure[];
  /** Each round's req/s beside ÷ alone. */
  ratios: number[];
  /** Queries the looping clients had answered. */
  looped: number;
  rounds: number;
  seconds: number;
  connections: number;
}

const origin = (child: Child) => new URL(child.url).origin;

/** `clients` connections sending a new 490-field query each time the last is answered, for `seconds`. */
async function loop(
  url: string,
  clients: number,
  seconds: number,
  next: () => number,
): Promise<Record<string, number>> {
  const result = await autocannon({
    url,
    connections: clients,
    duration: seconds,
    requests: [
      { setupRequest: (request) => ({ ...request, ...hostileRequest(HOSTILE_QUERIES['490 fields'](next())) }) },
    ],
  });
  const codes = result.statusCodeStats as unknown as Record<string, { count: number }>;
  const statuses = Object.fromEntries(Object.entries(codes).map(([code, { count }]) => [code, count]));
  if (result.errors + result.timeouts) statuses['socket error'] = result.errors + result.timeouts;
  return statuses;
}

/**
 * The targets of hostile GraphQL on our compiled server as deployed (limits on, budgets raised): its CPU time
 * over 50 new 490-field queries in a row, per query; then REST reads by uuid at `connections`
 * alone and while 4 clients loop on that query, in one-second slices taken in turn (every other
 * round the other way round), `seconds` of each per round.
 *
 * @example
 * const figures = await measureHostile({ dataDir: './data', rounds: 3, seconds: 1, connections: 50, progress: console.log });
 */
export async function measureHostile(options: HostileOptions): Promise<HostileFigures> {
  const { progress } = options;
  progress('hostile GraphQL · starting our server');
  const server = await startOurs(options.dataDir, {
    ...RAISED,
    ACCOUNTS_FILE: join(await mkdtemp(join(tmpdir(), 'bench-hostile-')), 'accounts.json'),
  });
  try {
    if (options.pin) {
      pinToCore(process.pid, 0);
      pinToCore(server.process.pid!, 1);
    }
    return await measure(server, options);
  } finally {
    await server.stop();
  }
}

async function measure(server: Child, options: HostileOptions): Promise<HostileFigures> {
  const { rounds, seconds, connections, progress } = options;
  const [actor] = JSON.parse(await readFile(join(options.dataDir, 'actors.json'), 'utf8')) as { uuid: string }[];
  const graphql = `${origin(server)}/api/graphql`;
  const rest = `${origin(server)}/api/v1/actors/${actor!.uuid}`;
  let n = 0;
  const statuses: Record<string, number> = {};
  const count = (more: Record<string, number>) =>
    Object.entries(more).forEach(([code, k]) => (statuses[code] = (statuses[code] ?? 0) + k));
  const inARow = async () => {
    const before = await server.cpuSeconds();
    for (let i = 0; i < IN_A_ROW; i++) {
      const response = await fetch(graphql, hostileRequest(HOSTILE_QUERIES['490 fields'](n++)));
      await response.arrayBuffer();
      count({ [response.status]: 1 });
    }
    return (((await server.cpuSeconds()) - before) * 1000) / IN_A_ROW;
  };
  progress('hostile GraphQL · warming up');
  await inARow();
  await drive(rest, {}, 200, { connections, seconds: 1 });
  Object.keys(statuses).forEach((code) => delete statuses[code]);
  const figures: HostileFigures = {
    cpuMs: [],
    statuses,
    alone: [],
    beside: [],
    ratios: [],
    looped: 0,
    rounds,
    seconds,
    connections,
  };
  for (let round = 1; round <= rounds; round++) {
    progress(`hostile GraphQL · round ${round}/${rounds}`);
    figures.cpuMs.push(await inARow());
    const alone: Measure[] = [];
    const beside: Measure[] = [];
    const besideSlice = async () => {
      const [reads, looped] = await Promise.all([
        drive(rest, {}, 200, { connections, seconds: 1 }),
        loop(graphql, HOSTILE_CLIENTS, 1, () => n++),
      ]);
      count(looped);
      figures.looped += Object.values(looped).reduce((sum, k) => sum + k, 0);
      beside.push(reads);
    };
    for (let slice = 0; slice < seconds; slice++) {
      if (round % 2) alone.push(await drive(rest, {}, 200, { connections, seconds: 1 }));
      await besideSlice();
      if (!(round % 2)) alone.push(await drive(rest, {}, 200, { connections, seconds: 1 }));
    }
    figures.alone.push(combine(alone, 0));
    figures.beside.push(combine(beside, 0));
    figures.ratios.push(figures.beside.at(-1)!.rps / figures.alone.at(-1)!.rps);
  }
  return figures;
}

/** The hostile targets: CPU per 490-field query, REST's p99 and share of its req/s beside the looping clients. */
export const HOSTILE_TARGETS = { cpuMs: 15, p99Ms: 100, ratio: 0.5 };

/** Whether each target held, on the medians of the rounds. */
export function hostileVerdict(figures: HostileFigures): {
  cpuMs: number;
  p99: number;
  ratio: number;
  cpuOk: boolean;
  p99Ok: boolean;
  ratioOk: boolean;
} {
  const cpuMs = median(figures.cpuMs);
  const p99 = median(figures.beside.map((m) => m.p99));
  const ratio = median(figures.ratios);
  return {
    cpuMs,
    p99,
    ratio,
    cpuOk: cpuMs <= HOSTILE_TARGETS.cpuMs,
    p99Ok: p99 < HOSTILE_TARGETS.p99Ms,
    ratioOk: ratio >= HOSTILE_TARGETS.ratio,
  };
}
