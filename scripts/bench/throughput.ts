import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RedisServer } from '../lib/redis-server.ts';
import { compiledServer, NODE_FLAGS, pinToCore, startChild, type Child } from './child.ts';
import { combine, drive, median, type Measure } from './load.ts';
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
  /** The baseline's CPU per request ÷ this server's, each round's pair measured together: the median, and the lowest and highest round. */
  efficiency?: { median: number; low: number; high: number };
}

export interface ThroughputRow {
  scenario: Scenario;
  baseline?: Figures;
  /** The baseline sent (b)'s token, which (b)'s efficiency compares with. */
  tokenBaseline?: Figures;
  jsonServer?: Figures;
  ours: Partial<Record<Variant, Figures>>;
}

/** The documented budgets raised so that nothing is refused during a run. */
export const RAISED = {
  RATE_LIMIT_ANONYMOUS: '1000000000',
  RATE_LIMIT_BASIC: '1000000000',
  PICTURE_RATE_LIMIT: '1000000000',
};

const origin = (child: Child) => new URL(child.url).origin;

function summarize(measures: Measure[], baseline?: Measure[]): Figures {
  const ratios = baseline
    ? measures.flatMap((m, round) => (m.cpuUs && baseline[round]?.cpuUs ? [baseline[round].cpuUs / m.cpuUs] : []))
    : [];
  return {
    ...(ratios.length
      ? { efficiency: { median: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios) } }
      : {}),
    rps: median(measures.map((m) => m.rps)),
    p50: median(measures.map((m) => m.p50)),
    p99: median(measures.map((m) => m.p99)),
    wrong: measures.reduce((sum, m) => sum + m.wrong, 0),
    cpuUs: median(measures.map((m) => m.cpuUs ?? 0)),
  };
}

/**
 * One PUBLIC_URL for every deployment: picture URLs in answers are absolute, and each server's
 * own address in them would give each its own bytes and ETags, so the 304 recorded on one
 * would be a 200 on the others.
 */
const PUBLIC_URL = 'https://catalog.example.org';

/** Our compiled server on a free port of 127.0.0.1, serving `dataDir`, configured by `env`, node given `nodeOptions` too. */
export async function startOurs(
  dataDir: string,
  env: Record<string, string>,
  nodeOptions: string[] = [],
): Promise<Child> {
  const port = await freePort();
  return startChild(
    compiledServer(...nodeOptions),
    { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_URL, ...env },
    `http://127.0.0.1:${port}/api/ping`,
  );
}

/** A BASIC account's token, registered on `server` for variant (b). */
async function basicToken(server: Child): Promise<string> {
  const body = {
    first_name: 'Bench',
    last_name: 'Mark',
    username: 'bench_reader',
    email: 'bench@example.org',
    password: 'a benchmark passphrase',
  };
  const response = await fetch(`${origin(server)}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201)
    throw new Error(`registering the bench account: ${response.status} ${await response.text()}`);
  return String(((await response.json()) as { token: string }).token);
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 1000));

/**
 * One round of one request on several servers (each a process of its own), in one-second
 * slices taken in turn, `seconds` of them each: every server meets the same moments of a shared
 * machine whose speed moves from one second to the next. A server's CPU time is read over the
 * whole round, a pause included before and after, so that the work it finishes while another
 * is driven (a collection, a log write) is counted too. Runs that share a process (two clients
 * of one server) are measured alike, but their CPU time cannot be told apart: it is given as 0.
 *
 * @example
 * const [ours, theirs] = await sliced([{ child: a, request }, { child: b, request }], 200, { seconds: 5, connections: 50 });
 */
export async function sliced(
  runs: { child: Child; request: Request }[],
  status: number,
  { seconds, connections }: { seconds: number; connections: number },
): Promise<Measure[]> {
  const ownProcess = new Set(runs.map((run) => run.child)).size === runs.length;
  await pause();
  const before = await Promise.all(runs.map((run) => run.child.cpuSeconds()));
  const slices = runs.map((): Measure[] => []);
  for (let slice = 0; slice < seconds; slice++) {
    for (const [i, { child, request }] of runs.entries())
      slices[i]!.push(
        await drive(origin(child) + request.path, request.headers, status, { ...request, seconds: 1, connections }),
      );
  }
  await pause();
  const after = await Promise.all(runs.map((run) => run.child.cpuSeconds()));
  return slices.map((measures, i) => combine(measures, ownProcess ? after[i]! - before[i]! : 0));
}

/**
 * Starts our server as deployed in each variant (limits on; with a token; through a local
 * redis-server; limits off; a budget of one for the 429 flood), a node:http baseline
 * replaying our exact answers, and json-server on the same records, then drives every
 * scenario on each in turn, interleaved over `rounds`. No scenario named as `only` says: no row.
 *
 * @example
 * const rows = await measureThroughput({ dataDir: './data', rounds: 3, seconds: 5, connections: 50, progress: console.log });
 */
export async function measureThroughput(options: ThroughputOptions): Promise<ThroughputRow[]> {
  const { dataDir, progress } = options;
  const scenarios = (await scenariosFor(dataDir)).filter(
    (scenario) => !options.only || scenario.name.includes(options.only),
  );
  if (scenarios.length === 0) return [];
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
    progress('starting redis-server and our server in five deployments');
    await redis.start();
    const accounts = (name: string) => ({ ACCOUNTS_FILE: join(work, name, 'accounts.json') });
    const deployed = await startOurs(dataDir, { ...RAISED, ...accounts('a') });
    // (b) is the same deployment in a process of its own: each run's CPU time is its server's.
    const withToken = await startOurs(dataDir, { ...RAISED, ...accounts('b') });
    const shared = await startOurs(dataDir, {
      ...RAISED,
      ...accounts('c'),
      REDIS_URL: redis.url,
      RATE_LIMIT_REDIS_TIMEOUT_MS: '50',
    });
    const unlimited = await startOurs(dataDir, { RATE_LIMIT: 'off', ...accounts('d') });
    const refusing = await startOurs(dataDir, {
      RATE_LIMIT_ANONYMOUS: '1',
      RATE_LIMIT_WINDOW_SECONDS: '86400',
      ...accounts('flood'),
    });
    [deployed, withToken, shared, unlimited, refusing].forEach(started);
    const token = { authorization: `Bearer ${await basicToken(withToken)}` };
    const servers: Record<Variant, { child: Child; headers: Record<string, string> }> = {
      a: { child: deployed, headers: {} },
      b: { child: withToken, headers: token },
      c: { child: shared, headers: {} },
      d: { child: unlimited, headers: {} },
      flood: { child: refusing, headers: {} },
    };
    const variantsOf = (scenario: Scenario) => Object.keys(scenario.targets) as Variant[];
    const requestOf = (scenario: Scenario, variant: Variant): Request => ({
      ...scenario.ours,
      headers: { ...scenario.ours.headers, ...servers[variant].headers },
    });
    const replayed = (scenario: Scenario) => scenario.baseline !== 'graphql-js';

    // Record our exact answers (the 304 needs the ETag of the 200 first) for the baseline to replay.
    const answers = [];
    for (const scenario of scenarios) {
      const first = variantsOf(scenario)[0]!;
      const server = origin(servers[first].child);
      if ('if-none-match' in scenario.ours.headers)
        scenario.ours.headers['if-none-match'] = (await record(server, scenario.ours.path, {})).headers.etag ?? '';
      if (first === 'flood') await record(server, scenario.ours.path, {}); // spends the budget of one
      const answer = await record(server, scenario.ours.path, scenario.ours.headers, scenario.ours);
      if (answer.status !== scenario.status)
        throw new Error(`${scenario.name}: ours answered ${answer.status}, expected ${scenario.status}`);
      if (replayed(scenario)) answers.push(answer);
    }
    await writeFile(join(work, 'answers.json'), JSON.stringify(answers));
    progress('starting the node:http baseline, plain graphql-js and json-server');
    const replay = started(
      await startChild(
        [...NODE_FLAGS, '--import', 'tsx', 'scripts/bench/baseline-server.ts', join(work, 'answers.json')],
        {},
      ),
    );
    // The same baseline again, sent (b)'s token: it then reads the same request bytes as ours (b) does.
    const tokenReplay = started(
      await startChild(
        [...NODE_FLAGS, '--import', 'tsx', 'scripts/bench/baseline-server.ts', join(work, 'answers.json')],
        {},
      ),
    );
    const graphqlJs = started(
      await startChild([...NODE_FLAGS, '--import', 'tsx', 'scripts/bench/graphql-js-server.ts', dataDir], {}),
    );
    await writeFile(join(work, 'db.json'), JSON.stringify(await jsonServerDb(dataDir)));
    const port = await freePort();
    const jsonServer = started(
      await startChild(
        [
          ...NODE_FLAGS,
          'node_modules/json-server/lib/cli/bin.js',
          join(work, 'db.json'),
          '--port',
          String(port),
          '--host',
          '127.0.0.1',
          '--id',
          'uuid',
          '--quiet',
          '--read-only',
        ],
        {},
        `http://127.0.0.1:${port}/actors?_limit=1`,
      ),
    );
    for (const scenario of scenarios) {
      const theirs = scenario.jsonServer;
      if (theirs && 'if-none-match' in theirs.headers)
        theirs.headers['if-none-match'] = (await record(origin(jsonServer), theirs.path, {})).headers.etag ?? '';
    }

    type Run = { label: string; child: Child; request: Request; into: Measure[] };
    const plans = scenarios.map((scenario) => {
      const ours = Object.fromEntries(variantsOf(scenario).map((variant) => [variant, [] as Measure[]])) as Partial<
        Record<Variant, Measure[]>
      >;
      const runs: Run[] = variantsOf(scenario).map((variant) => ({
        label: `ours (${variant})`,
        child: servers[variant].child,
        request: requestOf(scenario, variant),
        into: ours[variant]!,
      }));
      const baselineMeasures: Measure[] = [];
      const jsonMeasures: Measure[] = [];
      runs.push({
        label: 'baseline',
        child: replayed(scenario) ? replay : graphqlJs,
        request: scenario.ours,
        into: baselineMeasures,
      });
      const tokenBaseline: Measure[] = [];
      if (replayed(scenario) && ours.b)
        runs.push({
          label: 'baseline (token)',
          child: tokenReplay,
          request: requestOf(scenario, 'b'),
          into: tokenBaseline,
        });
      // json-server is driven after the others, not between them: at ten times our CPU per request, the
      // collections it leaves behind would slow whichever server's slice came next.
      const apart: Run | undefined = scenario.jsonServer && {
        label: 'json-server',
        child: jsonServer,
        request: scenario.jsonServer,
        into: jsonMeasures,
      };
      return { scenario, runs, apart, ours, baselineMeasures, tokenBaseline, jsonMeasures };
    });

    // One second of each request on each server first, so that no round measures a cold JIT.
    for (const { scenario, runs, apart } of plans) {
      progress(`warming up · ${scenario.name}`);
      for (const run of apart ? [...runs, apart] : runs)
        await drive(origin(run.child) + run.request.path, run.request.headers, scenario.status, {
          ...run.request,
          seconds: 1,
          connections: options.connections,
        });
    }
    for (let round = 1; round <= options.rounds; round++) {
      for (const { scenario, runs, apart } of plans) {
        // Each round starts with another server (the first slice after the pause measured 5 to 7 %
        // fewer req/s: two identical baselines, 10 rounds each way), and every other round takes
        // the rest backwards, so no server always follows the same one. Reversing the whole order
        // instead undid the rotation where a scenario has two servers: ours led every round.
        const shift = (round - 1) % runs.length;
        const [lead, ...rest] = [...runs.slice(shift), ...runs.slice(0, shift)];
        const order = [lead!, ...(round % 2 === 0 ? rest.reverse() : rest)];
        progress(`round ${round}/${options.rounds} · ${scenario.name} · ${order.map((run) => run.label).join(', ')}`);
        const measures = await sliced(order, scenario.status, options);
        order.forEach((run, i) => run.into.push(measures[i]!));
        if (apart) apart.into.push((await sliced([apart], scenario.status, options))[0]!);
      }
    }
    return plans.map(({ scenario, ours, baselineMeasures, tokenBaseline, jsonMeasures }) => ({
      scenario,
      ...(baselineMeasures.length ? { baseline: summarize(baselineMeasures) } : {}),
      ...(tokenBaseline.length ? { tokenBaseline: summarize(tokenBaseline) } : {}),
      ...(jsonMeasures.length ? { jsonServer: summarize(jsonMeasures) } : {}),
      ours: Object.fromEntries(
        Object.entries(ours).map(([variant, measures]) => [
          variant,
          summarize(measures!, variant === 'b' && tokenBaseline.length ? tokenBaseline : baselineMeasures),
        ]),
      ),
    }));
  } finally {
    for (const child of children) await child.stop();
    await redis.stop();
  }
}
