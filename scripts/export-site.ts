// npm run export-site -- --out site/ [--base /<repo>/] [--url https://<user>.github.io/<repo>]: the
// catalog (DATA_DIR with the curators' writes folded in) as a static site any host serves,
// whose Service Worker answers the read API in the browser (docs/static-site.md).
import { ChangeFeed } from '../src/changes/feed.ts';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openAccounts } from '../src/accounts/open.ts';
import { createApp } from '../src/app.ts';
import { foldedCatalog } from '../src/catalog-writes/folded.ts';
import { readConfig } from '../src/config/env.ts';
import { createLogger } from '../src/config/logger.ts';
import { PACKAGE } from '../src/lib/package-info.ts';
import { accountOptions, GRAPHQL_DOCUMENT_BYTES, graphqlLimits, overlayFile } from '../src/parts.ts';
import { ServedCatalog } from '../src/served/served-catalog.ts';
import { buildSite } from '../src/site/export/build-site.ts';
import { siteAddress } from '../src/site/export/site-address.ts';
import type { SiteGet } from '../src/site/export/site-get.ts';
import { writeSite } from '../src/site/export/write-site.ts';

const USAGE = `usage: npm run export-site -- --out <folder> [--base /<repo>/] [--url <the site's URL>]
  --out   the folder to write (empty, new, or an earlier export, which is replaced)
  --base  the path the site is served under: / (the default) or /<repo>/ for a GitHub project page
  --url   where the site will be, base included (https://<user>.github.io/<repo>): what the files
          for clients without the worker put before picture paths; unset: path-absolute (/<repo>/images/…)`;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const { values } = (() => {
  try {
    return parseArgs({ options: { out: { type: 'string' }, base: { type: 'string' }, url: { type: 'string' } } });
  } catch (error) {
    return fail(`${(error as Error).message}\n${USAGE}`);
  }
})();
if (!values.out) fail(`--out is missing\n${USAGE}`);
const address = siteAddress(values.base, values.url);
if ('error' in address) fail(`${address.error}\n${USAGE}`);

const settings = readConfig();
if ('error' in settings) fail(settings.error);
const { config } = settings;
const started = performance.now();
const log = createLogger({ level: 'warn', format: 'text' });
const { store } = accountOptions(config);
const { replayed } = await foldedCatalog(
  resolve(config.DATA_DIR),
  config.DEFAULT_LANGUAGE,
  store,
  overlayFile(config),
  log,
).catch((error: Error) => fail(error.message));
for (const { reason } of replayed.skipped) console.error(`a kept write no longer applies and is left out: ${reason}`);

// The server itself answers every file of the site, on loopback, with no limits and accounts of its own.
// A site has no change feed: its data version is its data's.
const served = new ServedCatalog(replayed.catalog, 64 * 2 ** 20, replayed.catalog.version);
const scratch = join(tmpdir(), `export-site-${process.pid}`);
const accounts = await openAccounts(
  accountOptions({ ...config, ACCOUNTS_STORE: 'file', ACCOUNTS_FILE: join(scratch, 'accounts.json') }),
  log,
);
const app = createApp(
  { ...config, PUBLIC_URL: address.served, SIMULATE: false, CLASSROOM: false },
  { served, feed: new ChangeFeed(), accounts, log },
);
const server = createServer(app.callback()).listen(0, '127.0.0.1');
await new Promise((ready) => server.once('listening', ready));
const { port } = server.address() as AddressInfo;
const get: SiteGet = async (path, headers) => {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers: headers ?? {} });
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: Buffer.from(await response.arrayBuffer()),
  };
};

try {
  const dist = new URL('../dist/site/', import.meta.url);
  const { files, notes } = await buildSite(replayed.catalog, get, {
    base: address.base,
    cacheSeconds: config.CACHE_MAX_AGE,
    maxPageSize: config.MAX_PAGE_SIZE,
    maxCsvRows: config.CSV_MAX_ROWS,
    about: PACKAGE,
    graphql: {
      limits: graphqlLimits(config),
      costlyQueue: config.GRAPHQL_COSTLY_QUEUE,
      documentCacheBytes: GRAPHQL_DOCUMENT_BYTES,
    },
    worker: {
      'sw.js': readFileSync(new URL('sw.js', dist)),
      'register.js': readFileSync(new URL('register.js', dist)),
    },
    origin: { served: address.served, site: address.site },
  });
  await writeSite(resolve(values.out), files);
  const bytes = [...files.values()].reduce((sum, body) => sum + body.length, 0);
  for (const note of notes) console.error(note);
  console.log(
    `${files.size} files (${(bytes / 2 ** 20).toFixed(1)} MiB) written to ${values.out} in ${((performance.now() - started) / 1000).toFixed(1)} s, for ${address.base}`,
  );
} catch (error) {
  fail(`export-site: ${(error as Error).message}`);
} finally {
  server.close();
  await accounts.close?.();
}
