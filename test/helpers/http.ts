import { mkdtemp, readFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAccounts } from '../../src/accounts/open.ts';
import type { AccountService } from '../../src/accounts/service.ts';
import type { Catalog } from '../../src/catalog/catalog.ts';
import { loadCatalog } from '../../src/catalog/load.ts';
import { readConfig, type Config } from '../../src/config/env.ts';
import { createLogger } from '../../src/config/logger.ts';
import type { Curator } from '../../src/http/curator.ts';
import { accountOptions, createLimits, createServer, memoryBudgets, openCurator } from '../../src/app.ts';
import { serve } from '../../src/http/serve.ts';
import { ServedCatalog } from '../../src/http/state.ts';
import { ROOT } from './spawn.ts';
import { Validator } from '@seriousme/openapi-schema-validator';
import { watchContract } from './contract.ts';
import type { Json } from './openapi.ts';
import { buildOpenApi } from '../../src/docs/openapi.ts';

/**
 * Settings every test server shares: quiet, unlimited, a scrypt cost low enough for hundreds
 * of hashes, and room for the hundreds of concurrent connections (and hashes) from one
 * address that the burst tests open to stand for many clients.
 */
export const TEST_ENV = { SCRYPT_N: '1024', LOG_LEVEL: 'silent', RATE_LIMIT: 'off', MAX_CONNECTIONS_PER_ADDRESS: '1000', HASH_QUEUE: '1000' };

/** A fresh temporary folder (for an accounts file, say). */
export function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'catalog-test-'));
}

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

export interface TestServer {
  url: string;
  config: Config;
  served: ServedCatalog;
  /** The accounts file, in a temporary folder unless the test named one. */
  file: string;
  accounts: AccountService;
  /** Takes the catalog writes, unless `CATALOG_WRITES=off`. */
  curator?: Curator;
  /** Every line the server logged as a problem (`warn`), whatever LOG_LEVEL says. */
  warnings: string[];
  port: number;
  /** `fetch` of a path on this server. */
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Starts the real Koa app on 127.0.0.1 and an ephemeral port, serving `DATA_DIR` (the embedded
 * catalog unless `env` names another) with its accounts in `<dir>/accounts.json` (a fresh
 * temporary folder unless given), configured by TEST_ENV and then `env`.
 */
export async function startApp(env: Record<string, string> = {}, dir?: string): Promise<TestServer> {
  const file = join(dir ?? (await tempDir()), 'accounts.json');
  const settings = readConfig({ DATA_DIR: join(ROOT, 'data'), ACCOUNTS_FILE: file, ...TEST_ENV, ...env, PORT: '0', HOST: '127.0.0.1' });
  if ('error' in settings) throw new Error(settings.error);
  const { config } = settings;
  const served = new ServedCatalog(await catalogAt(config.DATA_DIR, config.DEFAULT_LANGUAGE), memoryBudgets(config).cacheBytes);
  const warnings: string[] = [];
  const log = { ...createLogger({ level: config.LOG_LEVEL, format: config.LOG_FORMAT }), warn: (line: string) => void warnings.push(line) };
  const accounts = await openAccounts(accountOptions(config), log);
  const limits = await createLimits(config, log);
  const curator = await openCurator(config, served, log);
  const server: Server = await serve(createServer(config, { served, accounts, ...(limits ? { limits } : {}), ...(curator ? { curator } : {}), log }), 0, '127.0.0.1');
  const contract = watchContract(server, await resolvedDocument(config, curator !== undefined));
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
      if (problems.length) throw new Error(`answers the OpenAPI document does not describe:\n${[...new Set(problems)].slice(0, 40).join('\n')}`);
    },
  };
}

const resolvedDocuments = new Map<string, Json>();

/** The document a server of `config` serves (but its examples), `$ref`s resolved; one resolution per distinct document. */
async function resolvedDocument(config: Config, writes: boolean): Promise<Json> {
  const text = JSON.stringify(buildOpenApi({ defaultLanguage: config.DEFAULT_LANGUAGE, maxPageSize: config.MAX_PAGE_SIZE, writes }));
  let resolved = resolvedDocuments.get(text);
  if (!resolved) {
    const validator = new Validator();
    const checked = await validator.validate(JSON.parse(text) as Json);
    if (!checked.valid) throw new Error(`the served OpenAPI document is not valid: ${JSON.stringify(checked.errors).slice(0, 500)}`);
    resolvedDocuments.set(text, (resolved = validator.resolveRefs() as Json));
  }
  return resolved;
}

/** The records of one data file of the embedded catalog, as the oracle tests compare with. */
export async function dataFile(file: string): Promise<Record<string, unknown>[]> {
  return JSON.parse(await readFile(join(ROOT, 'data', file), 'utf8')) as Record<string, unknown>[];
}

/** The parsed JSON body; throws with the status and the start of the text when it is not JSON. */
export async function json<T = unknown>(response: Response): Promise<T> {
  const text = await response.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`not JSON (${response.status}): ${text.slice(0, 200)}`);
  }
}
