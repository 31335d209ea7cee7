import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadCatalog } from '../../src/catalog/load.ts';
import { readConfig, type Config } from '../../src/config/env.ts';
import { createLogger } from '../../src/config/logger.ts';
import { createApp } from '../../src/http/app.ts';
import { createLimits } from '../../src/limits/limits.ts';
import { serve } from '../../src/http/serve.ts';
import { ServedCatalog } from '../../src/http/state.ts';
import { ROOT } from './spawn.ts';

export interface TestServer {
  url: string;
  config: Config;
  served: ServedCatalog;
  /** `fetch` of a path on this server. */
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Starts the real Koa app on 127.0.0.1 and an ephemeral port, serving `DATA_DIR` (the embedded
 * catalog unless `env` names another), with logging and rate limits off unless `env` turns
 * them on.
 */
export async function startApp(env: Record<string, string> = {}): Promise<TestServer> {
  const settings = readConfig({ DATA_DIR: join(ROOT, 'data'), LOG_LEVEL: 'silent', RATE_LIMIT: 'off', ...env, PORT: '0', HOST: '127.0.0.1' });
  if ('error' in settings) throw new Error(settings.error);
  const { config } = settings;
  const loaded = await loadCatalog(config.DATA_DIR, { defaultLanguage: config.DEFAULT_LANGUAGE });
  if (!loaded.ok) throw new Error(`catalog refused: ${loaded.problems[0]?.message}`);
  const served = new ServedCatalog(loaded.catalog, config.RESPONSE_CACHE_MB * 2 ** 20);
  const log = createLogger(config.LOG_LEVEL);
  const limits = config.RATE_LIMIT === 'on' ? createLimits(config, log) : undefined;
  const server: Server = await serve(createApp({ served, config, log, ...(limits ? { limits } : {}) }), 0, '127.0.0.1');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    config,
    served,
    get: (path, headers = {}) => fetch(url + path, { headers }),
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await limits?.close();
    },
  };
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
