import type { AddressInfo } from 'node:net';
import { openAccounts } from './accounts/open.ts';
import { checkData } from './catalog/check.ts';
import { summarize } from './catalog/summary.ts';
import { readConfig } from './config/env.ts';
import { createLogger } from './config/logger.ts';
import { accountOptions, createLimits, createServer } from './app.ts';
import { ServedCatalog } from './http/state.ts';
import { reloadOnChange } from './http/reload.ts';
import { serve, stopOnSignals } from './http/serve.ts';

const settings = readConfig();
if ('error' in settings) {
  console.error(settings.error);
  process.exit(1);
}
const { config } = settings;
const log = createLogger(config.LOG_LEVEL);

const started = performance.now();
const { lines, result } = await checkData(config.DATA_DIR, config.DEFAULT_LANGUAGE);
if (!result.ok) {
  console.error(lines.join('\n'));
  process.exit(1);
}
log.info(summarize(result.catalog, performance.now() - started));

const accounts = await openAccounts(accountOptions(config), log).catch((error: Error) => {
  console.error(`cannot open the accounts: ${error.message}`);
  process.exit(1);
});

const served = new ServedCatalog(result.catalog, config.RESPONSE_CACHE_MB * 2 ** 20);
const limits = createLimits(config, log);
if (limits) log.info(`rate limits: ${limits.driver === 'redis' ? 'shared through Redis' : 'in memory'}`);
const server = await serve(createServer(config, { served, accounts, ...(limits ? { limits } : {}), log }), config.PORT, config.HOST).catch((error: NodeJS.ErrnoException) => {
  console.error(`cannot listen on ${config.HOST}:${config.PORT}: ${error.code ?? error.message}`);
  process.exit(1);
});
const { port } = server.address() as AddressInfo;
const shown = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
log.info(`listening on http://${shown}:${port} (bound to ${config.HOST})`);
if (config.WATCH_DATA) {
  reloadOnChange(served, { dir: config.DATA_DIR, defaultLanguage: config.DEFAULT_LANGUAGE }, log);
  log.info(`watching ${config.DATA_DIR}: every edit is checked and served without a restart`);
}
stopOnSignals(server, log.info);
