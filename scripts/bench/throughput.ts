import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild, type Child } from './child.ts';
import { drive, median, type Measure } from './load.ts';
import { freePort } from './ports.ts';
import { record } from './recorded.ts';
import { jsonServerDb, scenariosFor, type Scenario } from './scenarios.ts';

export interface ThroughputOptions {
  dataDir: string;
  rounds: number;
  seconds: number;
  connections: number;
  progress: (line: string) => void;
}

type ServerName = 'ours' | 'baseline' | 'json-server';

/** Median figures of one scenario on one server, over the rounds. */
export interface Figures {
  rps: number;
  p50: number;
  p99: number;
  wrong: number;
}

export interface ThroughputRow {
  scenario: Scenario;
  servers: Partial<Record<ServerName, Figures>>;
}

const origin = (child: Child) => new URL(child.url).origin;

function summarize(measures: Measure[]): Figures {
  return {
    rps: median(measures.map((m) => m.rps)),
    p50: median(measures.map((m) => m.p50)),
    p99: median(measures.map((m) => m.p99)),
    wrong: measures.reduce((sum, m) => sum + m.wrong, 0),
  };
}

/**
 * Starts our server, a node:http baseline replaying our exact answers, and json-server on the
 * same records, then drives every scenario on each in turn, interleaved over `rounds`.
 *
 * @example
 * const rows = await measureThroughput({ dataDir: './data', rounds: 3, seconds: 5, connections: 50, progress: console.log });
 */
export async function measureThroughput(options: ThroughputOptions): Promise<ThroughputRow[]> {
  const { dataDir, progress } = options;
  const work = await mkdtemp(join(tmpdir(), 'bench-'));
  const children: Child[] = [];
  try {
    progress('starting our server');
    const ourPort = await freePort();
    const ours = await startChild(
      ['--import', 'tsx', 'src/main.ts'],
      { PORT: String(ourPort), HOST: '127.0.0.1', DATA_DIR: dataDir, RATE_LIMIT: 'off', LOG_LEVEL: 'warn' },
      `http://127.0.0.1:${ourPort}/api/ping`,
    );
    children.push(ours);
    const scenarios = await scenariosFor(dataDir);

    // Record our exact answers (the 304 needs the ETag of the 200 first) for the baseline to replay.
    const answers = [];
    for (const scenario of scenarios) {
      if ('if-none-match' in scenario.ours.headers) {
        scenario.ours.headers['if-none-match'] = (await record(origin(ours), scenario.ours.path, {})).headers.etag ?? '';
      }
      const answer = await record(origin(ours), scenario.ours.path, scenario.ours.headers);
      if (answer.status !== scenario.status) throw new Error(`${scenario.name}: ours answered ${answer.status}, expected ${scenario.status}`);
      answers.push(answer);
    }
    await writeFile(join(work, 'answers.json'), JSON.stringify(answers));
    progress('starting the node:http baseline and json-server');
    const baseline = await startChild(['--import', 'tsx', 'scripts/bench/baseline-server.ts', join(work, 'answers.json')], {});
    children.push(baseline);
    await writeFile(join(work, 'db.json'), JSON.stringify(await jsonServerDb(dataDir)));
    const port = await freePort();
    const jsonServer = await startChild(
      ['node_modules/json-server/lib/cli/bin.js', join(work, 'db.json'), '--port', String(port), '--host', '127.0.0.1', '--id', 'uuid', '--quiet', '--read-only'],
      {},
      `http://127.0.0.1:${port}/actors?_limit=1`,
    );
    children.push(jsonServer);
    for (const scenario of scenarios) {
      const theirs = scenario.jsonServer;
      if (theirs && 'if-none-match' in theirs.headers) theirs.headers['if-none-match'] = (await record(origin(jsonServer), theirs.path, {})).headers.etag ?? '';
    }

    // One second of each request on each server first, so that no round measures a cold JIT.
    for (const scenario of scenarios) {
      progress(`warming up · ${scenario.name}`);
      const warm = { seconds: 1, connections: options.connections };
      await drive(origin(ours) + scenario.ours.path, scenario.ours.headers, scenario.status, warm);
      await drive(origin(baseline) + scenario.ours.path, scenario.ours.headers, scenario.status, warm);
      if (scenario.jsonServer) await drive(origin(jsonServer) + scenario.jsonServer.path, scenario.jsonServer.headers, scenario.status, warm);
    }
    const measures = scenarios.map(() => ({ ours: [] as Measure[], baseline: [] as Measure[], 'json-server': [] as Measure[] }));
    for (let round = 1; round <= options.rounds; round++) {
      for (const [i, scenario] of scenarios.entries()) {
        const runs: [ServerName, Child, Scenario['ours']][] = [
          ['ours', ours, scenario.ours],
          ['baseline', baseline, scenario.ours],
        ];
        if (scenario.jsonServer) runs.push(['json-server', jsonServer, scenario.jsonServer]);
        for (const [name, child, request] of runs) {
          progress(`round ${round}/${options.rounds} · ${scenario.name} · ${name}`);
          measures[i]![name].push(await drive(origin(child) + request.path, request.headers, scenario.status, options));
        }
      }
    }
    return scenarios.map((scenario, i) => {
      const servers: ThroughputRow['servers'] = {};
      for (const name of ['ours', 'baseline', 'json-server'] as const) if (measures[i]![name].length > 0) servers[name] = summarize(measures[i]![name]);
      return { scenario, servers };
    });
  } finally {
    for (const child of children) await child.stop();
  }
}
