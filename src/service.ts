import type { Server } from 'node:http';
import { openAccounts } from './accounts/open.ts';
import { createServer } from './app.ts';
import type { Catalog } from './catalog/catalog.ts';
import { ChangeFeed } from './changes/feed.ts';
import type { Config } from './config/env.ts';
import type { Logger } from './config/logger.ts';
import { ChangeStreams } from './http/change-streams.ts';
import { classroomBanner } from './http/classroom-banner.ts';
import { releaseBootMemory, serverUrls, stopOnSignals } from './http/lifecycle.ts';
import { serve } from './http/serve.ts';
import {
  accountOptions,
  createLimits,
  memoryBudgets,
  openCurator,
  openSandboxes,
  streamOptions,
  type ServiceParts,
} from './parts.ts';
import { reloadOnChange } from './served/reload.ts';
import { serveLoaded } from './served/serve-loaded.ts';
import { ServedCatalog } from './served/served-catalog.ts';

/** The boot line under `RATE_LIMIT=off`, which would otherwise print nothing about the limits. */
const RATE_LIMITS_OFF =
  'rate limits: off (RATE_LIMIT=off): any client may send any number of requests, to /api/v1/auth/* too, and ' +
  'none is answered 429; for servers strangers cannot reach';

/**
 * Starts the service on a loaded catalog (none yet only under WATCH_DATA, which waits for good data): opens the
 * accounts, creates the limits, listens, says where it can be reached, watches the data when asked, and stops
 * gracefully on SIGTERM or SIGINT. Rejects with a message naming what could not be used.
 *
 * @example
 * const server = await startService(config, catalog, log);
 */
export async function startService(config: Config, catalog: Catalog | undefined, log: Logger): Promise<Server> {
  const accounts = await openAccounts(accountOptions(config), log).catch((error: Error) => {
    throw new Error(`cannot open the accounts: ${error.message}`);
  });
  const served = new ServedCatalog(catalog, memoryBudgets(config).cacheBytes);
  const feed = new ChangeFeed();
  const curator = await openCurator(config, served, feed, log);
  if (!curator && catalog) serveLoaded(served, feed, catalog);
  const sandboxes = await openSandboxes(config, served, feed, log);
  const limits = await createLimits(config, log);
  log.info(
    limits ? `rate limits: ${limits.driver === 'redis' ? 'shared through Redis' : 'in memory'}` : RATE_LIMITS_OFF,
  );
  const streams = new ChangeStreams(feed, streamOptions(config));
  const parts: ServiceParts = {
    served,
    feed,
    streams,
    accounts,
    ...(limits ? { limits } : {}),
    ...(curator ? { curator } : {}),
    ...(sandboxes ? { sandboxes } : {}),
    log,
  };
  const server = await serve(createServer(config, parts), config.PORT, config.HOST).catch(
    (error: NodeJS.ErrnoException) => {
      throw new Error(`cannot listen on ${config.HOST}:${config.PORT}: ${error.code ?? error.message}`);
    },
  );
  const { local, network } = serverUrls(server, config.HOST);
  log.info(`listening on ${local} (bound to ${config.HOST})`);
  if (network.length) log.info(`on this machine's networks: ${network.join(', ')}`);
  if (config.CLASSROOM) log.info(classroomBanner({ local, network }, config));
  if (config.WATCH_DATA) {
    reloadOnChange(
      served,
      {
        dir: config.DATA_DIR,
        defaultLanguage: config.DEFAULT_LANGUAGE,
        replace: async (next) => (curator ? curator.rebase(next) : serveLoaded(served, feed, next)),
      },
      log,
      catalog,
    );
    log.info(`watching ${config.DATA_DIR}: every edit is checked and served without a restart`);
  }
  stopOnSignals(server, {
    graceMs: config.SHUTDOWN_GRACE_SECONDS * 1000,
    log: log.info,
    // A stream never finishes by itself: each is ended with a last event saying why.
    stopping: () => streams.close('The server is stopping; reconnect in a moment with the last event id'),
    cleanup: async () => {
      curator?.close();
      sandboxes?.close();
      await limits?.close();
      accounts.close();
      await log.close();
    },
  });
  releaseBootMemory();
  return server;
}
