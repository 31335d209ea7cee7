import type { Both, ScaleRow } from './scale.ts';
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

/**
 * The table of `npm run bench:scale`: per size, boot, memory and p99 latency of each query
 * as deployed (response cache on) and computed on every request (cache off), with the
 * targets beside the 100k figures and the 1M computed filter compared with the 100k one.
 *
 * @example
 * console.log(scaleTable(rows));
 */
export function scaleTable(rows: ScaleRow[]): string {
  const at100k = rows.find((r) => r.records === 100_000);
  const mark = (ok: boolean) => (ok ? ' ✓' : ' ✗');
  const p99 = (both: Both) => `${ms(both.served.p99)} / ${ms(both.computed.p99)} ms`;
  const body = rows.map((row) => {
    const is100k = row === at100k;
    const boot = `${(row.bootMs / 1000).toFixed(2)} s${is100k ? `${mark(row.bootMs < 3000)} (< 3 s)` : ''}`;
    const rss = `${Math.round(row.rssBytes / 2 ** 20)} MB${is100k ? `${mark(row.rssBytes < 600 * 2 ** 20)} (< 600 MB)` : ''}`;
    let filtered = p99(row.filtered);
    if (is100k) filtered += `${mark(row.filtered.served.p99 < 10)} (< 10 ms)`;
    if (row.records === 1_000_000 && at100k) {
      const ratio = row.filtered.computed.p99 / Math.max(at100k.filtered.computed.p99, 1);
      filtered += `; computed ${ratio.toFixed(1)}× 100k${mark(ratio <= 3)} (≤ 3×)`;
    }
    let search = `${p99(row.search)} ('${row.searchWords}': ${int(row.searchMatches)} matches)`;
    if (is100k) search += `${mark(row.search.served.p99 < 10)} (< 10 ms)`;
    const wrong = [row.filtered, row.deepPage, row.search].reduce((sum, b) => sum + b.served.wrong + b.computed.wrong, 0);
    return [int(row.records), boot, rss, filtered, `${p99(row.deepPage)} (page ${row.deepPageNumber})`, search + (wrong ? ` ⚠ ${wrong} wrong` : '')];
  });
  return table(['records', 'boot (until it answers)', 'RSS after boot', 'filter p99 (cache on / off)', 'deep sorted page p99 (on / off)', 'search, 2 words, p99 (on / off)'], body);
}
