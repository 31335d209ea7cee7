import type { ThroughputRow } from './throughput.ts';

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)}`;

/** A markdown table: one row per line of cells. */
export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/**
 * The throughput table of `npm run bench`: req/s and p50/p99 latency (ms) per server, our
 * ratio to the node:http baseline and to json-server, and the target beside the ratio.
 *
 * @example
 * console.log(throughputTable(rows));
 */
export function throughputTable(rows: ThroughputRow[]): string {
  const body = rows.map(({ scenario, servers }) => {
    const { ours, baseline, 'json-server': js } = servers;
    const cell = (f?: { rps: number; p50: number; p99: number; wrong: number }) =>
      f ? `${int(f.rps)} (${ms(f.p50)} / ${ms(f.p99)})${f.wrong ? ` ⚠ ${f.wrong} wrong` : ''}` : 'n/a';
    const toBase = ours && baseline ? ours.rps / baseline.rps : NaN;
    const toJs = ours && js ? ours.rps / js.rps : NaN;
    const verdict = (value: number, target: number) => (Number.isNaN(value) ? 'n/a' : `${value.toFixed(2)}${target ? (value >= target ? ' ✓' : ' ✗') : ''}`);
    return [
      scenario.name,
      cell(ours),
      cell(baseline),
      cell(js),
      `${verdict(toBase, scenario.target)}${scenario.target ? ` (≥ ${scenario.target})` : ''}`,
      js ? `${verdict(toJs, 8)} (≥ 8)` : 'n/a',
    ];
  });
  return table(['scenario', 'ours req/s (p50 / p99 ms)', 'node:http baseline', 'json-server', 'ours ÷ baseline', 'ours ÷ json-server'], body);
}
