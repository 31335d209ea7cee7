// A crawl generated from the served schema: every GraphQL field of every record answers, in
// every language, and agrees with REST (test/helpers/graphql-crawl.ts), on the embedded catalog
// and on a generated one of 10,000 records.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { generateCatalog, writeCatalog } from '../scripts/lib/generate-catalog.ts';
import { crawlCatalog, type CrawlReport } from './helpers/graphql-crawl.ts';
import { json, startApp, type TestServer } from './helpers/http.ts';

/** Every family of the generated catalog is sized from its actors: 1,993 actors make 10,002 records with the overview. */
const GENERATED_ACTORS = 1_993;

/** The records the server counts in its overview's `data_count`, over every family. */
async function recordCount(server: TestServer): Promise<number> {
  const { data_count } = await json<{ data_count: Record<string, number> }>(await server.get('/api/v1/overview'));
  return Object.values(data_count).reduce((sum, n) => sum + n, 0);
}

/** That the crawl found no problem, and listed every record the overview counts in each language. */
function assertCrawled(report: CrawlReport, records: number): void {
  const shown = report.problems.slice(0, 30).join('\n');
  assert.is(report.problems.length, 0, `${report.problems.length} problems, the first:\n${shown}`);
  assert.is(report.records, records * report.languages.length);
}

test('the embedded catalog: every record of every list, in every language, answers every field as REST does', async () => {
  const server = await startApp();
  try {
    const report = await crawlCatalog(server, { compareEvery: 1 });
    assertCrawled(report, await recordCount(server));
    assert.equal(report.languages, ['en-US', 'pt-BR', 'es-ES']);
    // Every listed record was compared, and each singular root field's once per language.
    assert.ok(report.compared > report.records, `${report.compared} compared of ${report.records}`);
  } finally {
    await server.close();
  }
});

test('a generated catalog of 10,000 records: every page of every list answers without errors in every language, every 37th record as REST does', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'catalog-crawl-'));
  await writeCatalog(dir, generateCatalog({ actors: GENERATED_ACTORS, seed: 37 }));
  const server = await startApp({ DATA_DIR: dir });
  try {
    const records = await recordCount(server);
    assert.ok(records >= 10_000, `${records} records`);
    const report = await crawlCatalog(server, { compareEvery: 37 });
    assertCrawled(report, records);
  } finally {
    await server.close();
  }
});

test.run();
