import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, passwordHasher } from '../../src/accounts/open.ts';
import { createAccount, readRegisterBody } from '../../src/accounts/service.ts';
import { createLogger } from '../../src/config/logger.ts';
import { Nginx } from '../lib/nginx.ts';
import { RedisServer } from '../lib/redis-server.ts';
import { compiledServer, startChild, type Child } from './child.ts';
import { drive, median } from './load.ts';
import { freePort } from './ports.ts';
import { openStreams } from './stream-clients.ts';
import { curatedServer } from './writes.ts';

const HERE = new URL('.', import.meta.url).pathname;

export interface ChangeFeedOptions {
  /** Streams held open on one instance (1,000 for the targets). */
  streams: number;
  /** Writes timed to the last stream. */
  writes: number;
  rounds: number;
  seconds: number;
  connections: number;
  progress: (line: string) => void;
}

/** What `npm run bench` reports of the change feed. */
export interface ChangeFeedRow {
  streams: number;
  /** Milliseconds from a write's answer to its event on the last of the streams, over the writes. */
  fanout: { p50: number; p99: number };
  /** Resident memory the open idle streams add, in MB (median of the rounds). */
  idleMb: number;
  /** Reads by uuid with the streams open ÷ with none, req/s side by side (median of the rounds). */
  readsRatio: number;
  /** Server CPU per `GET /api/v1/changes` of the last 100 changes, in milliseconds. */
  feedCpuMs: number;
  /** The same fan-out through nginx with three instances sharing Redis: streams through nginx, writes on one instance. */
  cluster: { streams: number; p50: number; p99: number };
}

/** The streams' bounds raised past what the benchmark opens from one address. */
const OPEN = {
  CHANGE_STREAMS: '100000',
  CHANGE_STREAMS_PER_ADDRESS: '100000',
  CHANGE_STREAMS_PER_ACCOUNT: '100000',
  MAX_CONNECTIONS: '100000',
  MAX_CONNECTIONS_PER_ADDRESS: '100000',
};

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/** PATCHes an actor's nationality as `token`: the write's `Catalog-Version`, its one change's id. */
async function write(base: string, token: string, actor: string, n: number): Promise<{ version: string; at: number }> {
  const response = await fetch(`${base}/api/v1/actors/${actor}`, {
    method: 'PATCH',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/merge-patch+json' },
    body: JSON.stringify({ nationality: `Nation ${n}` }),
  });
  await response.arrayBuffer();
  const at = performance.now();
  if (response.status !== 200) throw new Error(`PATCH: ${response.status}`);
  return { version: response.headers.get('catalog-version')!, at };
}

/** `writes` writes, each timed from its answer to its event on the last of `streams`. */
async function fanout(
  streams: Awaited<ReturnType<typeof openStreams>>,
  writes: number,
  send: (n: number) => Promise<{ version: string; at: number }>,
): Promise<{ p50: number; p99: number }> {
  const lasts: number[] = [];
  for (let n = 0; n < writes; n++) {
    const { version, at } = await send(n);
    lasts.push(Math.max(0, Math.max(...(await streams.arrivals(version))) - at));
  }
  return { p50: median(lasts), p99: percentile(lasts, 99) };
}

/** One instance: memory and reads beside idle streams, a feed page's CPU, the fan-out of writes. */
async function oneInstance(options: ChangeFeedOptions): Promise<Omit<ChangeFeedRow, 'cluster'>> {
  const { server, base, token } = await curatedServer(undefined, options.progress, OPEN);
  try {
    const actors = ((await (await fetch(`${base}/api/v1/actors?size=50`)).json()) as { uuid: string }[]).map(
      (a) => a.uuid,
    );
    const byUuid = `${base}/api/v1/actors/${actors[1]}`;
    const load = { connections: options.connections, seconds: options.seconds };
    options.progress('the change feed: 110 writes, then a page of the last 100');
    for (let n = 0; n < 110; n++) await write(base, token, actors[0]!, n);
    const { changes } = (await (await fetch(`${base}/api/v1/changes?limit=1000`)).json()) as {
      changes: { cursor: string }[];
    };
    const page = `${base}/api/v1/changes?since=${changes.at(-101)!.cursor}&limit=100`;
    await drive(page, {}, 200, { connections: 4, seconds: 1 });
    const cpuBefore = await server.cpuSeconds();
    const pages = await drive(page, {}, 200, { connections: 4, seconds: options.seconds });
    const feedCpuMs = (((await server.cpuSeconds()) - cpuBefore) * 1000) / pages.requests;
    await drive(byUuid, {}, 200, { connections: options.connections, seconds: 1 });
    const ratios: number[] = [];
    const added: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      options.progress(`the change feed: round ${round + 1}, reads with and without ${options.streams} idle streams`);
      // Turn about, so that neither side always follows a pause.
      const alone = round % 2 === 0 ? await drive(byUuid, {}, 200, load) : undefined;
      const rss = await server.rss();
      const held = await holdStreams(base, options.streams);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      added.push(((await server.rss()) - rss) / 2 ** 20);
      const beside = await drive(byUuid, {}, 200, load);
      await held.close();
      ratios.push(beside.rps / (alone ?? (await drive(byUuid, {}, 200, load))).rps);
    }
    options.progress(`the change feed: ${options.writes} writes to ${options.streams} streams`);
    const streams = await openStreams([base], options.streams);
    const fan = await fanout(streams, options.writes, (n) => write(base, token, actors[2]!, 1000 + n));
    streams.close();
    return { streams: options.streams, fanout: fan, idleMb: median(added), readsRatio: median(ratios), feedCpuMs };
  } finally {
    await server.stop();
  }
}

/** `count` streams held open on `base` by a process of its own (hold-streams.ts), until `close`. */
async function holdStreams(base: string, count: number): Promise<{ close(): Promise<void> }> {
  const holder = spawn(process.execPath, ['--import', 'tsx', join(HERE, 'hold-streams.ts'), base, String(count)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const [line] = (await once(holder.stdout!, 'data')) as [Buffer];
  if (!String(line).includes('ready')) throw new Error(`holding streams: ${String(line)}`);
  return {
    close: async () => {
      holder.stdin!.end();
      await once(holder, 'exit');
    },
  };
}

const SECRET = 'the key every instance of the benchmark shares';

/** Three instances sharing Redis behind nginx: streams through nginx, writes on the first instance. */
async function throughNginx(options: ChangeFeedOptions, streamCount: number): Promise<ChangeFeedRow['cluster']> {
  const work = await mkdtemp(join(tmpdir(), 'bench-changes-'));
  const redis = new RedisServer(await freePort(), work);
  await redis.start();
  const children: Child[] = [];
  let nginx: Nginx | undefined;
  try {
    const store = await openStore(
      { kind: 'redis', url: redis.url, timeoutMs: 1000 },
      createLogger({ level: 'warn', format: 'text' }),
    );
    const body = {
      username: 'bench',
      email: 'bench@example.org',
      password: 'the bench password',
      first_name: 'B',
      last_name: 'M',
      role: 'MAINTAINER',
    };
    await createAccount(
      store,
      readRegisterBody(body),
      passwordHasher({ scryptN: 2 ** 17, hashes: { concurrent: 1, queued: 0 } }),
    );
    store.close();
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      const env = {
        ...OPEN,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        TRUST_PROXY: '1',
        ACCOUNTS_STORE: 'redis',
        REDIS_URL: redis.url,
        JWT_SECRET: SECRET,
        RATE_LIMIT: 'off',
      };
      children.push(await startChild(compiledServer(), env, `http://127.0.0.1:${port}/api/ping`));
    }
    nginx = new Nginx(
      await freePort(),
      children.map((child) => Number(new URL(child.url).port)),
    );
    await nginx.start();
    const first = children[0]!.url.replace(/\/api\/ping$/, '');
    const signIn = await fetch(`${first}/api/v1/auth/authenticate`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'bench', password: 'the bench password' }),
    });
    const { token } = (await signIn.json()) as { token: string };
    const actors = (await (await fetch(`${first}/api/v1/actors?size=1`)).json()) as { uuid: string }[];
    options.progress(`the change feed: ${streamCount} streams through nginx, 3 instances`);
    const streams = await openStreams([nginx.url], streamCount);
    try {
      return {
        streams: streamCount,
        ...(await fanout(streams, options.writes, (n) => write(first, token, actors[0]!.uuid, n))),
      };
    } finally {
      streams.close();
    }
  } finally {
    await nginx?.stop();
    for (const child of children) await child.stop();
    await redis.stop();
  }
}

/**
 * The change feed's targets (issue 54): a write's event reaching 1,000 open streams on one
 * instance, and through nginx across three; the memory of idle streams and reads beside them;
 * the server CPU of a page of the last 100 changes.
 */
export async function measureChangeFeed(options: ChangeFeedOptions): Promise<ChangeFeedRow> {
  const single = await oneInstance(options);
  return { ...single, cluster: await throughNginx(options, options.streams) };
}

/** The row as Markdown, each figure against its target (✓ met, ✗ missed). */
export function changeFeedTable(row: ChangeFeedRow): string {
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const mark = (met: boolean) => (met ? '✓' : '✗');
  return [
    '| Change feed | Figure | Target |',
    '| --- | --- | --- |',
    `| A write's event on the last of ${row.streams} streams, one instance (p50 / p99 of the writes) | ${ms(row.fanout.p50)} / ${ms(row.fanout.p99)} | p99 ≤ 100 ms ${mark(row.fanout.p99 <= 100)} |`,
    `| The same through nginx, 3 instances sharing Redis, ${row.cluster.streams} streams (p50 / p99) | ${ms(row.cluster.p50)} / ${ms(row.cluster.p99)} | ≤ 1 s ${mark(row.cluster.p99 <= 1000)} |`,
    `| Resident memory of ${row.streams} idle streams | ${row.idleMb.toFixed(1)} MB | ≤ 30 MB ${mark(row.idleMb <= 30)} |`,
    `| Reads by uuid beside ${row.streams} idle streams ÷ with none (req/s) | ${row.readsRatio.toFixed(2)} | ≥ 0.9 ${mark(row.readsRatio >= 0.9)} |`,
    `| Server CPU of \`GET /api/v1/changes\` of the last 100 changes | ${row.feedCpuMs.toFixed(2)} ms | ≤ 2 ms ${mark(row.feedCpuMs <= 2)} |`,
  ].join('\n');
}
