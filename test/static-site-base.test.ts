import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { oracleCatalog } from './helpers/catalog-oracle.ts';
import { tempDir } from './helpers/http.ts';
import { ROOT } from './helpers/spawn.ts';
import { differences, serverAnswer, siteUnderTest, workerAnswers } from './helpers/site.ts';
import { listRequests, recordRequests } from './helpers/site-requests.ts';

// The site as a GitHub project page (under /<repo>/), and a catalog in HawAPI's layout (pictures at absolute URLs).

test('under /repo/: the worker answers as the server does, Link and pictures and the reference carry the base', async () => {
  const site = await siteUnderTest('/repo/');
  try {
    const catalog = await oracleCatalog(join(ROOT, 'data'));
    const found = await differences(site, [...recordRequests(catalog), ...listRequests(catalog, 120, 7)]);
    assert.equal(found.slice(0, 5), [], `${found.length} requests differ`);
    const [list] = await workerAnswers(site.page, site.base, [{ path: '/api/v1/episodes?size=2&page=2' }]);
    assert.match(list!.headers.link!, '</repo/api/v1/episodes?size=2&page=1>; rel="first"');
    assert.match(list!.body, `"thumbnail":"${site.url}/images/episodes/`);
    const document = JSON.parse((await workerAnswers(site.page, site.base, [{ path: '/api/openapi.json' }]))[0]!.body);
    assert.is(document.servers[0].url, '/repo/');
    const page = readFileSync(join(site.dir, 'repo', 'api', 'docs', 'index.html'), 'utf8');
    assert.match(page, '<script src="/repo/register.js"></script>');
    assert.match(page, 'href="/repo/api/docs/swagger-ui.css"');
    assert.match(
      readFileSync(join(site.dir, 'repo', 'api', 'docs', 'reference.js'), 'utf8'),
      "'/repo/api/openapi.json'",
    );
    assert.match(readFileSync(join(site.dir, 'repo', 'api', 'graphql', 'graphiql.js'), 'utf8'), '"/repo/api/graphql"');
    // A path outside the base is not the site's: the worker leaves it to the host.
    assert.is((await serverAnswer(site.server, { path: '/api/v1/actors?size=1' })).status, 200);
  } finally {
    await site.close();
  }
});

/** The embedded catalog in HawAPI's layout: every picture an absolute URL of another host, no pictures of its own. */
async function hawapiLayout(): Promise<string> {
  const dir = await tempDir();
  cpSync(join(ROOT, 'data'), dir, { recursive: true });
  const absolute = (value: unknown) =>
    typeof value === 'string' && value.startsWith('/images/') ? `https://cdn.example.org/hawapi${value}` : value;
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
    const rows = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>[];
    for (const row of rows) {
      if ('thumbnail' in row) row.thumbnail = absolute(row.thumbnail);
      if (Array.isArray(row.images)) row.images = row.images.map(absolute);
    }
    writeFileSync(join(dir, file), JSON.stringify(rows, null, 2));
  }
  return dir;
}

test("a catalog in HawAPI's layout: no pictures exported, and the worker answers as the server does", async () => {
  const data = await hawapiLayout();
  const site = await siteUnderTest('/', { DATA_DIR: data });
  try {
    const catalog = await oracleCatalog(data);
    const found = await differences(site, [...recordRequests(catalog), ...listRequests(catalog, 120, 11)]);
    assert.equal(found.slice(0, 5), [], `${found.length} requests differ`);
    assert.equal(readdirSync(site.dir).includes('images'), false);
    const [one] = await workerAnswers(site.page, site.base, [{ path: '/api/v1/actors?size=1' }]);
    assert.match(one!.body, '"thumbnail":"https://cdn.example.org/hawapi/images/actors/');
  } finally {
    await site.close();
  }
});

test.run();
