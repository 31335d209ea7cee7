import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pictureReferences } from '../src/catalog/pictures/references.ts';
import { oracleCatalog } from './helpers/catalog-oracle.ts';
import { exampleUrls } from './helpers/example-urls.ts';
import { resolvedDocument } from './helpers/http.ts';
import { ROOT } from './helpers/spawn.ts';
import { differences, serverAnswer, siteUnderTest, workerAnswers, type Asked, type Seen } from './helpers/site.ts';
import { graphqlRequests, listRequests, recordRequests } from './helpers/site-requests.ts';

// The exported static site, served by a host that knows nothing of the API, read in Chromium through its worker and
// held against the compiled server on the same data.
const site = await siteUnderTest('/');
const catalog = await oracleCatalog(join(ROOT, 'data'));
const document = await resolvedDocument(await (await site.server.get('/api/openapi.json')).text());
const fill = await exampleUrls(document);

test.after(() => site.close());

/** The host's answer to a client without the worker (curl, the Go SDK): redirects followed, as they follow them. */
function plainGet(path: string, hops = 3): Promise<Seen & { type: string }> {
  return new Promise((resolve, reject) => {
    httpGet(`${site.host.url}${path}`, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        if (res.statusCode === 301 && hops > 0) return resolve(plainGet(res.headers.location!, hops - 1));
        resolve({ status: res.statusCode!, headers: {}, body, type: String(res.headers['content-type']) });
      });
    }).on('error', reject);
  });
}

test('the export holds the pages, the worker, the host files and exactly the pictures the records name', () => {
  assert.match(site.exportOutput, /files \([\d.]+ MiB\) written to/);
  for (const file of ['.nojekyll', '_headers', 'sw.js', 'register.js', 'index.html', '404.html', 'site/manifest.json'])
    assert.ok(existsSync(join(site.dir, file)), file);
  for (const page of ['index.html', 'api/docs/index.html', 'api/graphql/index.html'])
    assert.match(readFileSync(join(site.dir, page), 'utf8'), '<script src="/register.js"></script>', page);
  const named = new Set<string>();
  for (const store of catalog.stores.values())
    for (const record of store.records) for (const { path } of pictureReferences(record)) named.add(path);
  for (const path of named) assert.ok(existsSync(join(site.dir, path)), path);
  const headers = readFileSync(join(site.dir, '_headers'), 'utf8');
  assert.match(headers, "/images/*\n  Content-Security-Policy: default-src 'none'");
  assert.match(headers, '/api/v1/*\n  Content-Type: application/json');
});

test('a client without the worker reads records, translations, socials and /api as files; lists are 404s', async () => {
  const actor = catalog.store('actors').records.find((r) => Array.isArray(r.socials) && r.socials.length > 0)!;
  const episode = catalog.store('episodes').records[0]!;
  for (const path of [
    `/api/v1/actors/${actor.uuid}`,
    `/api/v1/actors/${actor.uuid}/socials`,
    `/api/v1/episodes/${episode.uuid}/translations/pt-BR`,
    '/api/v1/overview',
  ]) {
    const file = await plainGet(path);
    const server = await serverAnswer(site.server, { path });
    assert.is(file.status, 200, path);
    assert.equal(JSON.parse(file.body), JSON.parse(server.body), path);
    assert.not.match(file.body, /[<>&]/, `${path}: harmless as the HTML a host may call it`);
  }
  const list = await plainGet('/api/v1/actors?size=2');
  assert.is(list.status, 404);
  assert.match(list.body, 'Service Worker');
  const document = JSON.parse((await plainGet('/api/openapi.json')).body);
  assert.equal(document.servers, [{ url: '/', description: document.servers[0].description }]);
  assert.match(document.info.description, 'A client without the worker');
});

test('every read route of the OpenAPI document, then generated reads: the worker answers as the server does', async () => {
  const routes = Object.keys(document.paths as object).filter(
    (path) =>
      /^\/api(?:\/|$)/.test(path) &&
      !/^\/api\/(?:docs|collections|graphql|client\.tgz|v1\/sandbox|v1\/auth|v1\/changes)/.test(path),
  );
  const gets = routes.filter((path) => (document.paths as Record<string, { get?: unknown }>)[path]!.get);
  assert.ok(gets.length >= 30, `${gets.length} read routes`);
  const asked: Asked[] = [
    // The site's OpenAPI document is its own (its server is the site): checked above.
    ...gets.filter((path) => path !== '/api/openapi.json').map((template) => ({ path: fill(template) })),
    ...recordRequests(catalog),
    ...listRequests(catalog, 300),
    // Every list in CSV: a cached page by parameter, a page by Accept, and a whole list streamed.
    ...[...catalog.stores.keys()]
      .filter((name) => name !== 'overview')
      .flatMap((name) => [
        { path: `/api/v1/${name}?format=csv&size=7&language=pt-BR` },
        { path: `/api/v1/${name}?size=3&page=2`, headers: { accept: 'text/csv' } },
        { path: `/api/v1/${name}?format=csv&size=1000&sort=created_at,desc` },
      ]),
    // Drawn pictures, drawn by the worker: the same bytes, type, policy and ETag.
    ...[...catalog.stores.values()].flatMap((store) =>
      store.records.slice(0, 3).flatMap((record) => pictureReferences(record).map(({ path }) => ({ path }))),
    ),
  ];
  const found = await differences(site, asked);
  assert.equal(found.slice(0, 8), [], `${found.length} of ${asked.length} requests differ`);
});

test('GraphQL by GET and POST: the worker answers as the server does; a mutation names the site as read-only', async () => {
  const asked = graphqlRequests(catalog);
  const found = await differences(
    site,
    asked.filter((one) => !one.path.includes('random_') && !(one.body ?? '').includes('random_')),
  );
  assert.equal(found.slice(0, 5), [], `${found.length} of ${asked.length} GraphQL requests differ`);
  const mutation = JSON.stringify({
    query: 'mutation { delete_location(uuid: "00000000-0000-4000-8000-000000000000") }',
  });
  const [refused] = await workerAnswers(site.page, site.base, [
    { path: '/api/graphql', method: 'POST', headers: { 'content-type': 'application/json' }, body: mutation },
  ]);
  assert.match(refused!.body, 'this site is a read-only copy of the catalog');
});

test("If-None-Match with the server's ETag: a 304 from the worker too", async () => {
  const asked: Asked[] = [
    '/api/v1/actors?size=3',
    `/api/v1/episodes/${catalog.store('episodes').records[0]!.uuid}`,
  ].map((path) => ({ path }));
  for (const one of asked) {
    const { headers } = await serverAnswer(site.server, one);
    const conditional = { ...one, headers: { 'if-none-match': headers.etag! } };
    const [worker] = await workerAnswers(site.page, site.base, [conditional]);
    assert.is(worker!.status, 304, one.path);
    assert.is((await serverAnswer(site.server, conditional)).status, 304);
  }
});

test('writes, accounts and sandboxes: a 405 in the one error shape naming the site as read-only', async () => {
  const asked: Asked[] = [
    { path: '/api/v1/actors', method: 'POST' },
    { path: `/api/v1/actors/${catalog.store('actors').records[0]!.uuid}`, method: 'PATCH' },
    { path: '/api/v1/overview', method: 'DELETE' },
    { path: '/api/v1/auth/register', method: 'POST' },
    { path: '/api/v1/auth/authenticate' },
    { path: '/api/v1/sandbox' },
  ];
  for (const [i, seen] of (await workerAnswers(site.page, site.base, asked)).entries()) {
    assert.is(seen.status, 405, asked[i]!.path);
    assert.is(seen.headers.allow, 'GET, HEAD');
    const body = JSON.parse(seen.body);
    assert.is(body.code, 405);
    assert.match(body.message, 'This site is a read-only copy of the catalog');
  }
});

test('the change feed: a 501 in the one error shape naming the data version the site was exported from', async () => {
  const asked: Asked[] = [{ path: '/api/v1/changes' }, { path: '/api/v1/changes?since=now' }];
  for (const seen of await workerAnswers(site.page, site.base, asked)) {
    assert.is(seen.status, 501);
    const body = JSON.parse(seen.body);
    assert.is(body.code, 501);
    assert.match(body.message, `frozen at its export (data version ${catalog.version})`);
  }
});

test('the official JavaScript client, loaded into a page of the site, gets through the worker what it gets from the server', async () => {
  copyFileSync(join(ROOT, 'node_modules/@hawapi/js-sdk/dist/index.esm.min.js'), join(site.dir, 'sdk.js'));
  const actor = catalog.store('actors').records.find((r) => Array.isArray(r.socials) && r.socials.length > 0)!;
  const episode = String(catalog.store('episodes').records[0]!.uuid);
  const calls = { actor: actor.uuid, social: String((actor.socials as { social: string }[])[0]!.social), episode };
  // Every method that reads, with what makes each answer comparable (random picks by their kind).
  const run = async ({ endpoint, sdk, actor, social, episode }: typeof calls & { endpoint: string; sdk: string }) => {
    const { createClient, Pageable } = (await import(sdk)) as typeof import('@hawapi/js-sdk');
    const client = createClient({ endpoint, inMemoryCache: false, language: 'pt-BR', size: 5 });
    const keep = (r: {
      data?: unknown;
      status: number;
      etag?: string;
      page?: number;
      item_size?: number;
      language?: string;
    }) =>
      JSON.stringify({
        data: r.data,
        status: r.status,
        // The server's ETag names the variant (`-gzip` for fetch's compressed one); the worker's is the identity one.
        etag: r.etag?.replace(/-(?:gzip|br)"$/, '"'),
        page: r.page,
        items: r.item_size,
        language: r.language,
      });
    // A random pick: its status and that it is a record (two picks need not hold the same optional fields).
    const kind = (r: { data?: unknown; status: number }) =>
      JSON.stringify({ status: r.status, record: typeof r.data === 'object' && r.data !== null });
    /** The call's result as `show` sees it, or the error it threw (its code and message). */
    const settle = async <T>(call: () => Promise<T>, show: (value: T) => string) => {
      try {
        return show(await call());
      } catch (error) {
        const { code, message } = error as { code: number; message: string };
        return JSON.stringify({ code, message });
      }
    };
    const same = (text: string) => text;
    return [
      await settle(() => client.ping(), same),
      await settle(
        () => client.getInfo(),
        // The data version differs by design: the site names its export's data, the server its feed's cursor.
        (info) => JSON.stringify({ ...info, url: '', docs: '', api_url: '', data_version: '' }),
      ),
      await settle(
        () => client.getAll('episodes', null, new Pageable({ page: 2, size: 4, sort: 'episode_num', order: 'desc' })),
        keep,
      ),
      await settle(() => client.getAll('actors', { nationality: 'Brazilian' }), keep),
      await settle(() => client.getBy('actors', actor), keep),
      await settle(() => client.getRandom('characters'), kind),
      await settle(() => client.getAllTranslations('episodes', episode), keep),
      await settle(() => client.getTranslationBy('episodes', episode, 'en-US'), keep),
      await settle(() => client.getRandomTranslation('episodes', episode), kind),
      await settle(() => client.getAllSocials(actor), keep),
      await settle(() => client.getSocialBy(actor, social.toLowerCase()), keep),
      await settle(() => client.getRandomSocial(actor), kind),
      await settle(() => client.getOverview('pt-BR'), keep),
      await settle(() => client.getBy('actors', '00000000-0000-4000-8000-000000000000'), keep),
    ];
  };
  // tsx names functions with a helper the page does not have.
  await site.page.evaluate('globalThis.__name = (f) => f');
  const inPage = await site.page.evaluate(run, { ...calls, endpoint: `${site.url}/api`, sdk: `${site.url}/sdk.js` });
  const fromNode = await run({ ...calls, endpoint: `${site.server.url}/api`, sdk: '@hawapi/js-sdk' });
  assert.equal(inPage, fromNode);
});

test.run();
