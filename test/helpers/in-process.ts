import { ChangeFeed } from '../../src/changes/feed.ts';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { openAccounts } from '../../src/accounts/open.ts';
import type { AccountService } from '../../src/accounts/service.ts';
import { createServer } from '../../src/app.ts';
import { accountOptions, createLimits, memoryBudgets, openCurator } from '../../src/parts.ts';
import type { Catalog } from '../../src/catalog/catalog.ts';
import { loadCatalog } from '../../src/catalog/load.ts';
import { readConfig } from '../../src/config/env.ts';
import { createLogger } from '../../src/config/logger.ts';
import { buildOpenApi } from '../../src/docs/openapi.ts';
import type { Curator } from '../../src/served/curator.ts';
import { serve } from '../../src/http/serve.ts';
import { ServedCatalog } from '../../src/served/served-catalog.ts';
import { watchContract } from './contract.ts';
import { resolvedDocument, tempDir, TEST_ENV, type TestServer } from './http.ts';
import { ROOT } from './spawn.ts';

// Most suites run the compiled server (compiled-server.ts). The few that reach into the
// server's own objects (its catalog, accounts or curator) start the app from the sources in
// the test's process instead, through a real listener all the same.

const catalogs = new Map<string, Promise<Catalog>>();

/** Loads a data directory once per test file: catalogs are immutable once loaded. */
function catalogAt(dir: string, defaultLanguage: string): Promise<Catalog> {
  const key = `${dir} ${defaultLanguage}`;
  let found = catalogs.get(key);
  if (!found) {
    found = loadCatalog(dir, { defaultLanguage }).then((loaded) => {
      if (!loaded.ok) throw new Error(`catalog refused: ${loaded.problems[0]?.message}`);
      return loaded.catalog;
    });
    catalogs.set(key, found);
  }
  return found;
}

/** A server of the test's own process, with the objects it serves from. */
export interface InProcessServer extends TestServer {
  served: ServedCatalog;
  accounts: AccountService;
  /** Takes the catalog writes, unless `CATALOG_WRITES=off`. */
  curator?: Curator;
}

/**
 * Starts the Koa app from the sources on 127.0.0.1 and an ephemeral port, serving `DATA_DIR`
 * (the embedded catalog unless `env` names another) with its accounts in `<dir>/accounts.json`
 * (a fresh temporary folder unless given), configured by TEST_ENV and then `env`.
 */
export async function startInProcess(env: Record<string, string> = {}, dir?: string): Promise<InProcessServer> {
  const file = join(dir ?? (await tempDir()), 'accounts.json');
  const settings = readConfig({
    DATA_DIR: join(ROOT, 'data'),
    ACCOUNTS_FILE: file,
    ...TEST_ENV,
    ...env,
    PORT: '0',
    HOST: '127.0.0.1',
  });
  if ('error' in settings) throw new Error(settings.error);
  const { config } = settings;
  const served = new ServedCatalog(
    await catalogAt(config.DATA_DIR, config.DEFAULT_LANGUAGE),
    memoryBudgets(config).cacheBytes,
  );
  const warnings: string[] = [];
  const log = {
    ...createLogger({ level: config.LOG_LEVEL, format: config.LOG_FORMAT }),
    warn: (line: string) => void warnings.push(line),
  };
  const accounts = await openAccounts(accountOptions(config), log);
  const limits = await createLimits(config, log);
  const feed = new ChangeFeed();
  const curator = await openCurator(config, served, feed, log);
  const server: Server = await serve(
    createServer(config, {
      served,
      feed,
      accounts,
      ...(limits ? { limits } : {}),
      ...(curator ? { curator } : {}),
      log,
    }),
    0,
    '127.0.0.1',
  );
  const document = buildOpenApi({
    defaultLanguage: config.DEFAULT_LANGUAGE,
    maxPageSize: config.MAX_PAGE_SIZE,
    maxCsvRows: config.CSV_MAX_ROWS,
    writes: curator !== undefined,
  });
  const contract = watchContract(server, await resolvedDocument(JSON.stringify(document)));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    warnings,
    config,
    served,
    file,
    accounts,
    ...(curator ? { curator } : {}),
    get: (path, headers = {}) => fetch(url + path, { headers }),
    close: async () => {
      // Every answer this server gave is held against its OpenAPI document (test/helpers/contract.ts).
      const problems = contract();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await limits?.close();
      curator?.close();
      accounts.close();
      if (problems.length)
        throw new Error(
          `answers the OpenAPI document does not describe:\n${[...new Set(problems)].slice(0, 40).join('\n')}`,
        );
    },
  };
}
