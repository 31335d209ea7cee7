import { join } from 'node:path';
import Papa from 'papaparse';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startCompiled } from '../scripts/bench/child.ts';
import { catalogOf } from '../scripts/bench/scale.ts';
import { ROOT } from './helpers/spawn.ts';

// A list of 100,000 records in one CSV answer, from the compiled server on a generated catalog
// (100,000 actors among 500,000 records): every row arrives, and the server's memory grows by
// far less than the answer, which it sends as it makes it instead of holding it.

const ACTORS = 100_000;
const dir = join(ROOT, await catalogOf(502_000, 'var/bench', () => {}));
const { server, base } = await startCompiled(dir, {
  // A young generation of 1 MB: what the peak then measures is what the server holds, not the
  // garbage it has yet to collect (without it, Node 26's peak grew 17 to 38 MB in runs here).
  NODE_OPTIONS: '--max-semi-space-size=1',
  CATALOG_WRITES: 'off',
  RATE_LIMIT: 'off',
  LOG_LEVEL: 'warn',
  CSV_MAX_ROWS: String(2 * ACTORS),
});
test.after(() => server.stop());

test('over 100,000 actors stream as CSV, every row, without the server holding the answer', async () => {
  await server.resetPeakRss();
  const before = await server.rss();
  const response = await fetch(`${base}/api/v1/actors?format=csv&size=${ACTORS * 10}`);
  assert.is(response.status, 200);
  assert.is(response.headers.get('content-length'), null, 'sent as made, not measured first');
  const total = Number(response.headers.get('x-pagination-item-total'));
  assert.ok(total >= ACTORS, `${total} actors`);
  const bytes = Buffer.from(await response.arrayBuffer());
  const grown = (await server.peakRss()) - before;
  const text = bytes.toString('utf8');
  const { data, errors, meta } = Papa.parse<Record<string, string>>(text.slice(1, -2), {
    header: true,
    newline: '\r\n',
  });
  assert.equal(errors.slice(0, 3), []);
  assert.is(data.length, total);
  assert.ok(meta.fields?.includes('first_name'));
  assert.is(new Set(data.map((row) => row.uuid)).size, total, 'each actor once');
  // The list's order, as JSON pages give it.
  const firstPage = (await (await fetch(`${base}/api/v1/actors?size=50`)).json()) as { uuid: string }[];
  assert.equal(
    data.slice(0, 50).map((row) => row.uuid),
    firstPage.map((record) => record.uuid),
  );
  const mb = (n: number) => (n / 2 ** 20).toFixed(1);
  console.log(`  CSV of ${total} actors: ${mb(bytes.length)} MB sent; the server's peak memory grew ${mb(grown)} MB`);
  assert.ok(grown < bytes.length / 2, `the server grew ${mb(grown)} MB for an answer of ${mb(bytes.length)} MB`);
});

test.run();
