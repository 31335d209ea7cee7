import type { Server } from 'node:http';
import cors from '@koa/cors';
import Koa from 'koa';
import { openAccounts } from './accounts/open.ts';
import type { Catalog } from './catalog/catalog.ts';
import type { Config } from './config/env.ts';
import type { Logger } from './config/logger.ts';
import { docsRoutes } from './docs/routes.ts';
import { accessLog } from './http/access-log.ts';
import { bearerAuth, bearerOf } from './http/bearer.ts';
import { errorHandler } from './http/errors.ts';
import { FastPath } from './http/fast-path.ts';
import type { StoodInFor } from './http/stand-ins.ts';
import { captureBase } from './http/replayed-headers.ts';
import { EXPOSED_HEADERS } from './http/headers.ts';
import { rateLimit, trustProxies } from './http/rate-limit.ts';
import { requestGuard } from './http/request-guard.ts';
import { accountRoutes } from './http/routes/accounts.ts';
import type { RouteDeps } from './http/routes/context.ts';
import { metaRoutes } from './http/routes/meta.ts';
import { pictureRoutes } from './http/routes/pictures.ts';
import { addReadRoutes } from './http/read-exchange.ts';
import { PACKAGE } from './lib/package-info.ts';
import { apiInfo } from './reads/overview.ts';
import { catalogReads } from './reads/routes.ts';
import { RouteTable } from './http/routing.ts';
import { graphqlRoutes } from './graphql/route.ts';
import { releaseBootMemory, serverUrls, stopOnSignals } from './http/lifecycle.ts';
import { classroomBanner } from './http/classroom-banner.ts';
import { reloadOnChange } from './served/reload.ts';
import { createHttpServer, serve, type ServerOptions } from './http/serve.ts';
import { signInGuard } from './http/sign-in-guard.ts';
import { simulation } from './http/simulation.ts';
import { ServedCatalog } from './served/served-catalog.ts';
import { ChangeFeed } from './changes/feed.ts';
import { serveLoaded } from './served/serve-loaded.ts';
import { writeRoutes } from './http/routes/writes.ts';
import { changeRoutes } from './http/routes/changes.ts';
import { ChangeStreams } from './http/change-streams.ts';
import { boardRoutes } from './http/board-page.ts';
import { CatalogWriter } from './http/catalog-writer.ts';
import { sandboxRoutes, sandboxView } from './http/routes/sandbox.ts';
import {
  accountOptions,
  createLimits,
  GRAPHQL_DOCUMENT_BYTES,
  graphqlLimits,
  logsAccess,
  memoryBudgets,
  openCurator,
  openSandboxes,
  streamOptions,
  type ServiceParts,
} from './parts.ts';

/** Every route of the read API, registered in matching order (fixed paths before `{uuid}`). */
export function catalogRoutes(routes: RouteTable, deps: RouteDeps): void {
  addReadRoutes(routes, deps, [apiInfo(deps)]);
  metaRoutes(routes, deps);
  addReadRoutes(routes, deps, catalogReads(deps));
}

/**
 * The Koa application: access log, CORS, the error renderer, the request guard, then the
 * routes, each request admitted by the rate limits and the bearer token check in the budget
 * of the route that serves it.
 *
 * @example
 * const app = createApp(config, { served, accounts, limits, log });
 */
export function createApp(
  config: Config,
  {
    served,
    feed,
    streams = new ChangeStreams(feed, streamOptions(config)),
    accounts,
    limits,
    log,
    curator,
    sandboxes,
  }: ServiceParts,
  fast?: FastPath,
  proxy = trustProxies(config.TRUST_PROXY, log.warn),
): Koa {
  const app = new Koa({ proxy: config.TRUST_PROXY > 0, maxIpsCount: config.TRUST_PROXY });
  const routeDeps: RouteDeps = {
    served,
    about: PACKAGE,
    cacheSeconds: config.CACHE_MAX_AGE,
    maxPageSize: config.MAX_PAGE_SIZE,
    maxCsvRows: config.CSV_MAX_ROWS,
    ...(config.PUBLIC_URL ? { publicUrl: config.PUBLIC_URL } : {}),
  };
  const writer = curator && new CatalogWriter({ ...routeDeps, curator, ...(sandboxes ? { sandboxes } : {}) });
  const caller = async (ctx: Koa.Context) => (await bearerOf(ctx, accounts)).caller;
  const routes = new RouteTable([
    // Limits count a request before a bad token is refused, so refusals are limited too.
    ['rateLimit', limits && rateLimit({ limits, proxy, caller })],
    // Inside the error handler (its 401s render in the error shape), before the route's own middleware.
    ['bearerAuth', bearerAuth(accounts)],
    // Counted and its token checked first: simulated answers spend the caller's budget.
    ['simulation', config.SIMULATE ? simulation(proxy) : undefined],
    // After the token check: an account with a sandbox reads (and writes) its own catalog.
    ['sandbox', writer?.sandboxes ? sandboxView(writer) : undefined],
  ]);
  const cacheControl = `public, max-age=${config.CACHE_MAX_AGE}`;
  // Writes other instances appended, applied before a feed cursor ahead of this one is judged.
  const feedSync = curator && (() => curator.sync());
  catalogRoutes(routes, routeDeps);
  changeRoutes(routes, {
    ...routeDeps,
    feed,
    streams,
    ...(sandboxes ? { sandboxes } : {}),
    ...(feedSync ? { sync: feedSync } : {}),
  });
  if (writer) writeRoutes(routes, routeDeps, writer);
  if (writer?.sandboxes) {
    sandboxRoutes(routes, writer.sandboxes, config.SANDBOX_WRITES);
    boardRoutes(routes, cacheControl);
  }
  accountRoutes(routes, accounts, limits && signInGuard(limits));
  docsRoutes(routes, {
    served,
    cacheControl,
    defaultLanguage: config.DEFAULT_LANGUAGE,
    maxPageSize: config.MAX_PAGE_SIZE,
    maxCsvRows: config.CSV_MAX_ROWS,
    writes: writer !== undefined,
    sandboxes: writer?.sandboxes !== undefined,
    simulation: config.SIMULATE,
  });
  graphqlRoutes(routes, {
    ...routeDeps,
    cacheControl,
    limits: graphqlLimits(config),
    costlyQueue: config.GRAPHQL_COSTLY_QUEUE,
    documentCacheBytes: GRAPHQL_DOCUMENT_BYTES,
    log,
    feed,
    ...(feedSync ? { feedSync } : {}),
    ...(writer ? { writer } : {}),
  });
  pictureRoutes(routes, served);
  // Named, so that a test holds the chain to what the fast path stands in for (STANDS_IN_FOR).
  const use = <S, C>(name: StoodInFor, middleware: Koa.Middleware<Koa.DefaultState & S, Koa.DefaultContext & C>) =>
    app.use<S, C>(Object.defineProperty(middleware, 'name', { value: name }));
  if (fast) use('remember', fast.remember());
  if (logsAccess(config)) use('accessLog', accessLog(log));
  use(
    'cors',
    cors({
      origin: '*',
      allowHeaders: ['Authorization', 'Content-Type', 'If-Match'],
      exposeHeaders: EXPOSED_HEADERS,
      maxAge: 86400,
    }),
  );
  use('errorHandler', errorHandler(log));
  use('requestGuard', requestGuard());
  use('captureBase', captureBase());
  use('routes', routes.middleware());
  return app;
}

/** How much of a refused body is read and dropped before its connection closes (nginx lingers 30 s). */
const LINGER_BYTES = 64 * 2 ** 20;
const LINGER_MS = 5_000;

/** The server's protections, from the configuration. */
function serverOptions(config: Config): ServerOptions {
  return {
    requestTimeoutMs: config.REQUEST_TIMEOUT_SECONDS * 1000,
    headersTimeoutMs: config.HEADERS_TIMEOUT_SECONDS * 1000,
    maxConnections: config.MAX_CONNECTIONS,
    // A client sending a body past the limit reads its 413 once it has sent this much more, or after this long.
    linger: { maxBytes: LINGER_BYTES, maxMs: LINGER_MS },
    // Behind a proxy every connection comes from the proxy: a cap per address would cap them all.
    ...(config.TRUST_PROXY === 0 ? { maxConnectionsPerAddress: config.MAX_CONNECTIONS_PER_ADDRESS } : {}),
  };
}

/**
 * The HTTP server of the service: repeated reads are answered by the fast path (see
 * fast-path.ts), limits and tokens included, and everything else by Koa.
 *
 * @example
 * const server = await serve(createServer(config, { served, accounts, limits, log }), 3000, '0.0.0.0');
 */
export function createServer(config: Config, parts: ServiceParts): Server {
  const { served, accounts, limits, log, sandboxes } = parts;
  const proxy = trustProxies(config.TRUST_PROXY, log.warn);
  const fast = new FastPath({
    served,
    accounts,
    ...(limits ? { limits } : {}),
    proxy,
    log,
    ...(sandboxes ? { sandboxes } : {}),
    logAccess: logsAccess(config),
    memory: memoryBudgets(config).fastPath,
  });
  const app = createApp(config, parts, fast, proxy);
  return createHttpServer(fast.listener(app.callback()), serverOptions(config));
}

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
