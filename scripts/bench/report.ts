import type { Both, ScaleRow } from './scale.ts';
import type { Variant } from './scenarios.ts';
import type { Figures, ThroughputRow } from './throughput.ts';

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)}`;

/** A markdown table: one row per line of cells. */
export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** Column heads of the deployments, the default first. */
const VARIANTS: [Variant, string][] = [
  ['a', '(a) limits on'],
  ['b', '(b) limits on, token'],
  ['c', '(c) limits on, Redis'],
  ['d', '(d) limits off'],
  ['flood', '429 flood'],
];

/**
 * The throughput table of `npm run bench`: per scenario, the node:http baseline's req/s,
 * then our req/s and ratio to the baseline in each deployment (the default first) with the
 * target beside it, and json-server's req/s with our ratio to it (limits off).
 *
 * @example
 * console.log(throughputTable(rows));
 */
export function throughputTable(rows: ThroughputRow[]): string {
  const used = VARIANTS.filter(([variant]) => rows.some((row) => row.ours[variant]));
  const warn = (f: Figures) => (f.wrong ? ` ⚠ ${f.wrong} wrong` : '');
  const body = rows.map(({ scenario, baseline, jsonServer, ours }) => {
    const cells = used.map(([variant]) => {
      const figures = ours[variant];
      if (!figures || !baseline) return '';
      const ratio = figures.rps / baseline.rps;
      const target = scenario.targets[variant];
      const verdict = target ? ` ${ratio >= target ? '✓' : '✗'} (≥ ${target})` : '';
      return `${int(figures.rps)}: **${ratio.toFixed(2)}**${verdict}${warn(figures)}`;
    });
    const js = jsonServer && ours.d ? `${int(jsonServer.rps)} (ours ${(ours.d.rps / jsonServer.rps).toFixed(1)}×)${warn(jsonServer)}` : 'n/a';
    return [scenario.name, baseline ? `${int(baseline.rps)} (p99 ${ms(baseline.p99)} ms)${warn(baseline)}` : 'n/a', ...cells, js];
  });
  return table(['scenario', 'node:http baseline req/s', ...used.map(([, head]) => `${head}: req/s: ÷ baseline`), 'json-server req/s'], body);
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
