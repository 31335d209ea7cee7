import { startService } from './service.ts';
import { checkData } from './catalog/check.ts';
import { summarize } from './catalog/summary.ts';
import { readConfig } from './config/env.ts';
import { createLogger } from './config/logger.ts';
import { anchorTickObject } from './lib/tick-object-anchor.ts';

// Before any request: keeps every `process.nextTick` on V8's fast path after an idle collection.
void anchorTickObject();

const settings = readConfig();
if ('error' in settings) {
  console.error(settings.error);
  process.exit(1);
}
const { config } = settings;
const log = createLogger({ level: config.LOG_LEVEL, format: config.LOG_FORMAT });

/** Says why the service cannot start (whatever LOG_LEVEL says; as JSON for collectors), then exits 1. */
async function refuse(lines: string): Promise<never> {
  if (config.LOG_FORMAT === 'json' && config.LOG_LEVEL !== 'silent') log.error(lines);
  else console.error(lines);
  await log.close();
  process.exit(1);
}

/** Loads and checks the data, then starts serving it, or refuses to start. */
async function start(): Promise<void> {
  const started = performance.now();
  const { lines, result } = await checkData(config.DATA_DIR, config.DEFAULT_LANGUAGE);
  if (!result.ok && !config.WATCH_DATA) {
    await refuse(lines.join('\n'));
  } else if (!result.ok) {
    // Under npm run dev the watcher can repair broken data: start, answer 503 until it is good.
    log.warn(`${lines.join('\n')}\nstarting without a catalog: requests get 503 until the data is good`);
    await startService(config, undefined, log).catch((error: Error) => refuse(error.message));
  } else {
    if (lines.length > 1) log.warn(lines.slice(0, -1).join('\n'));
    log.info(summarize(result.catalog, performance.now() - started));
    await startService(config, result.catalog, log).catch((error: Error) => refuse(error.message));
  }
}

// Not a top-level await: the bundle is CommonJS (see scripts/build.mjs). A failure nobody
// foresaw still ends the process with its stack and exit code 1, as an unhandled rejection.
void start();
