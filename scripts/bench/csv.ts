import { startCompiled } from './child.ts';
import { drive, median } from './load.ts';
import { catalogOf } from './scale.ts';

/** What `measureCsv` needs. */
export interface CsvOptions {
  rounds: number;
  seconds: number;
  workDir: string;
  progress: (line: string) => void;
}

/** Server CPU per page of 100 actors, JSON and CSV, with each round's ratio. */
export interface CsvRow {
  jsonCpuMs: number;
  csvCpuMs: number;
  /** Median of the rounds' CSV / JSON ratios. */
  ratio: number;
  rounds: number;
}

/**
 * The server CPU of a page of 100 actors (a generated catalog of 10,000 records), in JSON and
 * in CSV, side by side: the response cache off, so that every request builds its page (a
 * cached page costs the same lookup in both). JSON and CSV take turns, each leading every
 * other round.
 *
 * @example
 * const row = await measureCsv({ rounds: 3, seconds: 5, workDir: 'var/bench', progress: console.error });
 */
export async function measureCsv(options: CsvOptions): Promise<CsvRow> {
  const dir = await catalogOf(10_000, options.workDir, options.progress);
  const { server, base } = await startCompiled(dir, {
    RATE_LIMIT: 'off',
    RESPONSE_CACHE_MB: '0',
    MAX_PAGE_SIZE: '100',
    LOG_LEVEL: 'warn',
  });
  try {
    const page = (format: string) => `${base}/api/v1/actors?size=100&page=3${format}`;
    const cpuPerPage = async (url: string) => {
      const before = await server.cpuSeconds();
      const { requests } = await drive(url, {}, 200, { connections: 4, seconds: options.seconds });
      return (((await server.cpuSeconds()) - before) * 1000) / requests;
    };
    await cpuPerPage(page(''));
    await cpuPerPage(page('&format=csv'));
    const json: number[] = [];
    const csv: number[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      options.progress(`CSV: round ${round + 1}, a page of 100 actors in JSON and in CSV`);
      const [first, second] = round % 2 ? ['&format=csv', ''] : ['', '&format=csv'];
      const a = await cpuPerPage(page(first));
      const b = await cpuPerPage(page(second));
      const [j, c] = round % 2 ? [b, a] : [a, b];
      json.push(j);
      csv.push(c);
      ratios.push(c / j);
    }
    return { jsonCpuMs: median(json), csvCpuMs: median(csv), ratio: median(ratios), rounds: options.rounds };
  } finally {
    await server.stop();
  }
}

/** The row in BENCHMARKS.md's table form. */
export function csvTable(row: CsvRow): string {
  const mark = row.ratio <= 1.5 ? '✓' : '✗';
  return [
    '| Measure | JSON | CSV | CSV / JSON | Target |',
    '| --- | --- | --- | --- | --- |',
    `| Server CPU of a page of 100 actors | ${row.jsonCpuMs.toFixed(2)} ms | ${row.csvCpuMs.toFixed(2)} ms | ${row.ratio.toFixed(2)} | ≤ 1.5 ${mark} |`,
  ].join('\n');
}
