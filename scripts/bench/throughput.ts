import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RedisServer } from '../lib/redis-server.ts';
import { compiledServer, pinToCore, startChild, type Child } from './child.ts';
import { drive, median, type Measure } from './load.ts';
import { freePort } from './ports.ts';
import { record } from './recorded.ts';
import { jsonServerDb, scenariosFor, type Request, type Scenario, type Variant } from './scenarios.ts';

export interface ThroughputOptions {
  dataDir: string;
  rounds: number;
  seconds: number;
  connections: number;
  /** Only the scenarios whose name holds this (a partial run while working on one path). */
  only?: string;
  /** Every server on CPU 1 and the load (this process) on CPU 0, instead of where the system puts them. */
  pin?: boolean;
  progress: (line: string) => void;
}

/** Median figures of one scenario on one server, over the rounds. */
export interface Figures {
  rps: number;
  p50: number;
  p99: number;
  wrong: number;
  /** Median CPU microseconds per request of the server process. */
  cpuUs: number;
}

export interface ThroughputRow {
  scenario: Scenario;
  baseline?: Figures;
  jsonServer?: Figures;
  ours: Partial<Record<Variant, Figures>>;
}

/** The documented budgets raised so that nothing is refused during a run. */
const RAISED = { RATE_LIMIT_ANONYMOUS: '1000000000', RATE_LIMIT_BASIC: '1000000000' };

const origin = (child: Child) => new URL(child.url).origin;

function summarize(measures: Measure[]): Figures {
  return {
    rps: median(measures.map((m) => m.rps)),
    p50: median(measures.map((m) => m.p50)),
    p99: median(measures.map((m) => m.p99)),
    wrong: measures.reduce((sum, m) => sum + m.wrong, 0),
    cpuUs: median(measures.map((m) => m.cpuUs ?? 0)),
  };
}

async function startOurs(dataDir: string, env: Record<string, string>): Promise<Child> {
  const port = await freePort();
  return startChild(compiledServer(), { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ...env }, `http://127.0.0.1:${port}/api/ping`);
}

/** A BASIC account's token, registered on `server` for variant (b). */
async function basicToken(server: Child): Promise<string> {
  const body = { first_name: 'Bench', last_name: 'Mark', username: 'bench_reader', email: 'bench@example.org', password: 'a benchmark passphrase' };
  const response = await fetch(`${origin(server)}/api/v1/auth/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (response.status !== 201) throw new Error(`registering the bench account: ${response.status} ${await response.text()}`);
  return String(((await response.json()) as { token: string }).token);
}

/**
 * Starts our server as deployed in each variant (limits on; with a token; through a local
 * redis-server; limits off; a budget of one for the 429 flood), a node:http baseline
 * replaying our exact answers, and json-server on the same records, then drives every
 * scenario on each in turn, interleaved over `rounds`.
 *
 * @example
 * const rows = await measureThroughput({ dataDir: './data', rounds: 3, seconds: 5, connections: 50, progress: console.log });
 */
export async function measureThroughput(options: ThroughputOptions): Promise<ThroughputRow[]> {
  const { dataDir, progress } = options;
  const work = await mkdtemp(join(tmpdir(), 'bench-'));
  const children: Child[] = [];
  const redis = new RedisServer(await freePort());
  const started = (child: Child) => {
    if (options.pin) pinToCore(child.process.pid!, 1);
    children.push(child);
    return child;
  };
  if (options.pin) pinToCore(process.pid, 0);
  try {
    progress('starting redis-server and our server in four deployments');
    await redis.start();
    const accounts = (name: string) => ({ ACCOUNTS_FILE: join(work, name, 'accounts.json') });
    const deployed = await startOurs(dataDir, { ...RAISED, ...accounts('a') });
    const shared = await startOurs(dataDir, { ...RAISED, ...accounts('c'), REDIS_URL: redis.url, RATE_LIMIT_REDIS_TIMEOUT_MS: '50' });
    const unlimited = await startOurs(dataDir, { RATE_LIMIT: 'off', ...accounts('d') });
    const refusing = await startOurs(dataDir, { RATE_LIMIT_ANONYMOUS: '1', RATE_LIMIT_WINDOW_SECONDS: '86400', ...accounts('flood') });
    [deployed, shared, unlimited, refusing].forEach(started);
    const token = { authorization: `Bearer ${await basicToken(deployed)}` };
    const servers: Record<Variant, { child: Child; headers: Record<string, string> }> = {
      a: { child: deployed, headers: {} },
      b: { child: deployed, headers: token },
      c: { child: shared, headers: {} },
      d: { child: unlimited, headers: {} },
      flood: { child: refusing, headers: {} },
    };
    const scenarios = (await scenariosFor(dataDir)).filter((scenario) => !options.only || scenario.name.includes(options.only));
    if (scenarios.length === 0) throw new Error(`no scenario's name holds '${options.only}'`);
    const variantsOf = (scenario: Scenario) => Object.keys(scenario.targets) as Variant[];
    const requestOf = (scenario: Scenario, variant: Variant): Request => ({ ...scenario.ours, headers: { ...scenario.ours.headers, ...servers[variant].headers } });
    const replayed = (scenario: Scenario) => scenario.baseline !== 'graphql-js';

    // Record our exact answers (the 304 needs the ETag of the 200 first) for the baseline to replay.
    const answers = [];
    for (const scenario of scenarios) {
      const first = variantsOf(scenario)[0]!;
      const server = origin(servers[first].child);
      if ('if-none-match' in scenario.ours.headers) scenario.ours.headers['if-none-match'] = (await record(server, scenario.ours.path, {})).headers.etag ?? '';
      if (first === 'flood') await record(server, scenario.ours.path, {}); // spends the budget of one
      const answer = await record(server, scenario.ours.path, scenario.ours.headers, scenario.ours);
      if (answer.status !== scenario.status) throw new Error(`${scenario.name}: ours answered ${answer.status}, expected ${scenario.status}`);
      if (replayed(scenario)) answers.push(answer);
    }
    await writeFile(join(work, 'answers.json'), JSON.stringify(answers));
    progress('starting the node:http baseline, plain graphql-js and json-server');
    const replay = started(await startChild(['--import', 'tsx', 'scripts/bench/baseline-server.ts', join(work, 'answers.json')], {}));
    const graphqlJs = started(await startChild(['--import', 'tsx', 'scripts/bench/graphql-js-server.ts', dataDir], {}));
    await writeFile(join(work, 'db.json'), JSON.stringify(await jsonServerDb(dataDir)));
    const port = await freePort();
    const jsonServer = started(
      await startChild(
        ['node_modules/json-server/lib/cli/bin.js', join(work, 'db.json'), '--port', String(port), '--host', '127.0.0.1', '--id', 'uuid', '--quiet', '--read-only'],
        {},
        `http://127.0.0.1:${port}/actors?_limit=1`,
      ),
    );
    for (const scenario of scenarios) {
      const theirs = scenario.jsonServer;
      if (theirs && 'if-none-match' in theirs.headers) theirs.headers['if-none-match'] = (await record(origin(jsonServer), theirs.path, {})).headers.etag ?? '';
    }

    type Run = { label: string; child: Child; request: Request; into: Measure[] };
    const plans = scenarios.map((scenario) => {
      const ours = Object.fromEntries(variantsOf(scenario).map((variant) => [variant, [] as Measure[]])) as Partial<Record<Variant, Measure[]>>;
      const runs: Run[] = variantsOf(scenario).map((variant) => ({ label: `ours (${variant})`, child: servers[variant].child, request: requestOf(scenario, variant), into: ours[variant]! }));
      const baselineMeasures: Measure[] = [];
      const jsonMeasures: Measure[] = [];
      runs.push({ label: 'baseline', child: replayed(scenario) ? replay : graphqlJs, request: scenario.ours, into: baselineMeasures });
      if (scenario.jsonServer) runs.push({ label: 'json-server', child: jsonServer, request: scenario.jsonServer, into: jsonMeasures });
      return { scenario, runs, ours, baselineMeasures, jsonMeasures };
    });

    // One second of each request on each server first, so that no round measures a cold JIT.
    for (const { scenario, runs } of plans) {
      progress(`warming up · ${scenario.name}`);
      for (const run of runs) await drive(origin(run.child) + run.request.path, run.request.headers, scenario.status, { ...run.request, seconds: 1, connections: options.connections });
    }
    for (let round = 1; round <= options.rounds; round++) {
      for (const { scenario, runs } of plans) {
        // Each round starts the servers in another order, and each run starts after a pause, so
        // no server is always the one measured while the previous one still collects garbage.
        const shift = (round - 1) % runs.length;
        for (const run of [...runs.slice(shift), ...runs.slice(0, shift)]) {
          progress(`round ${round}/${options.rounds} · ${scenario.name} · ${run.label}`);
          await new Promise((resolve) => setTimeout(resolve, 1000));
          run.into.push(await drive(origin(run.child) + run.request.path, run.request.headers, scenario.status, { ...run.request, ...options }, run.child));
        }
      }
    }
    return plans.map(({ scenario, ours, baselineMeasures, jsonMeasures }) => ({
      scenario,
      ...(baselineMeasures.length ? { baseline: summarize(baselineMeasures) } : {}),
      ...(jsonMeasures.length ? { jsonServer: summarize(jsonMeasures) } : {}),
      ours: Object.fromEntries(Object.entries(ours).map(([variant, measures]) => [variant, summarize(measures!)])),
    }));
  } finally {
    for (const child of children) await child.stop();
    await redis.stop();
  }
}
