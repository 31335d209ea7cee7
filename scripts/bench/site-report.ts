import { table } from './report.ts';
import { median, percentile, type SiteFigures } from './site.ts';

const ms = (value: number) => `${value < 10 ? value.toFixed(2) : value.toFixed(0)} ms`;
const mark = (ok: boolean, target: string) => `${ok ? '✓' : '✗'} (${target})`;

/** The static site's figures as docs/BENCHMARKS.md shows them, each beside its target. */
export function siteTable(f: SiteFigures, data: string): string {
  const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
  const cold = median(f.coldMs);
  const rows = [
    [
      'export (`npm run export-site`, node start to exit)',
      `${(f.exportMs / 1000).toFixed(1)} s ${mark(f.exportMs <= 3000, '≤ 3 s')}`,
    ],
    ['the site', `${f.files} files, ${mb(f.siteBytes)} ${mark(f.siteBytes <= 5 * 2 ** 20, '≤ 5 MB')}`],
    [
      'the worker and the catalog it loads, gzipped',
      `${kb(f.workerAndCatalogGzip)} ${mark(f.workerAndCatalogGzip <= 300 * 1024, '≤ 300 KB')}`,
    ],
    [
      'a cold page to its first API answer (median)',
      `${ms(cold)} ${mark(cold <= 1500, '≤ 1.5 s')} (${f.coldMs.map(ms).join(', ')})`,
    ],
    [
      'the read mix in the page: the worker, p50 / p99',
      `${ms(percentile(f.worker, 50))} ${mark(percentile(f.worker, 50) <= 1, '≤ 1 ms')} / ${ms(percentile(f.worker, 99))} ${mark(percentile(f.worker, 99) <= 5, '≤ 5 ms')}`,
    ],
    [
      'the same requests to the compiled server on loopback, p50 / p99',
      `${ms(percentile(f.server, 50))} / ${ms(percentile(f.server, 99))}`,
    ],
  ];
  return `${table(['measure', 'figure'], rows)}\n\nData: ${data}. ${f.coldMs.length} exports and cold pages (fresh profiles, on a static host that knows nothing of the API); the read mix (${f.worker.length} requests each way) asked in one page with \`fetch\`, timed around each \`fetch\` and its body, the worker and the server in turn, five slices each.\n`;
}
