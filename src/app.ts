import type { Server } from 'node:http';
import cors from '@koa/cors';
import { Router } from '@koa/router';
import Koa from 'koa';
import type { AccountOptions } from './accounts/open.ts';
import { openAccounts, openOverlay } from './accounts/open.ts';
import type { AccountService } from './accounts/service.ts';
import type { Catalog } from './catalog/catalog.ts';
import { family, FAMILY_NAMES } from './catalog/families.ts';
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
import { positionOf, type RouteDeps } from './http/routes/context.ts';
import { metaRoutes, overviewRoutes } from './http/routes/meta.ts';
import { pictureRoutes } from './http/routes/pictures.ts';
import { recordRoutes } from './http/routes/records.ts';
import { socialRoutes } from './http/routes/socials.ts';
import { translationRoutes } from './http/routes/translations.ts';
import { classify, noRoute } from './http/routing.ts';
import { graphqlRoutes } from './graphql/route.ts';
import type { GraphQLLimits } from './graphql/limits.ts';
import { serverUrls, stopOnSignals } from './http/lifecycle.ts';
import { reloadOnChange } from './http/reload.ts';
import { createHttpServer, serve, type ServerOptions } from './http/serve.ts';
import { signInGuard } from './http/sign-in-guard.ts';
import { ServedCatalog } from './http/state.ts';
import { Curator } from './http/curator.ts';
import { writeRoutes } from './http/routes/writes.ts';
import { dirname, join } from 'node:path';
import { RateLimits, type RateLimitOptions } from './limits/rate-limits.ts';

/** The parts a server is built from: the loaded catalog, the accounts and the limits. */
export interface ServiceParts {
  served: ServedCatalog;
  accounts: AccountService;
  /** Takes the catalog writes; none when `CATALOG_WRITES=off` (the write routes then answer 405). */
  curator?: Curator;
  /** None when `RATE_LIMIT=off`. */
  limits?: RateLimits;
  log: Logger;
}

/** 400s and 404s the fast path may remember, in bytes: apart from `RESPONSE_CACHE_MB`, and small. */
const FAST_PATH_ERROR_BYTES = 2 ** 20;

/**
 * The share of `RESPONSE_CACHE_MB` the entries may take by their own measure: while entries
 * come and go under hostile traffic, the heap and the allocator hold up to twice what the
 * entries themselves take (freed space not yet reused, the collector's room to work), so the
 * process grows by the setting, not by more (measured with `npm run bench:soak`).
 */
const MEASURED_SHARE = 0.5;

/**
 * How `RESPONSE_CACHE_MB` is shared: of what the entries may take, seven eighths for the
 * answers themselves, one eighth for the fast path's index of the URLs that reach them.
 *
 * @example
 * memoryBudgets(config).cacheBytes; // 29360128 for RESPONSE_CACHE_MB=64
 */
export function memoryBudgets(config: Config): { cacheBytes: number; fastPath: { answersBytes: number; errorsBytes: number } } {
  const total = config.RESPONSE_CACHE_MB * 2 ** 20 * MEASURED_SHARE;
  return { cacheBytes: Math.floor((total * 7) / 8), fastPath: { answersBytes: Math.floor(total / 8), errorsBytes: FAST_PATH_ERROR_BYTES } };
}

/** Whether the configuration logs a line per request. */
function logsAccess(config: Config): boolean {
  return config.LOG_LEVEL === 'info' || config.LOG_LEVEL === 'debug';
}

/** The accounts' options, from the configuration. */
export function accountOptions(config: Config): AccountOptions {
  return {
    store:
      config.ACCOUNTS_STORE === 'redis'
        ? { kind: 'redis', url: config.REDIS_URL, timeoutMs: config.ACCOUNTS_REDIS_TIMEOUT_MS }
        : { kind: 'file', file: config.ACCOUNTS_FILE },
    ...(config.JWT_SECRET ? { jwtSecret: config.JWT_SECRET } : {}),
    tokenTtlSeconds: config.TOKEN_TTL,
    scryptN: config.SCRYPT_N,
    hashes: { concurrent: config.HASH_CONCURRENCY, queued: config.HASH_QUEUE },
  };
}

/** The rate limits the configuration asks for, or none when `RATE_LIMIT=off`. */
export async function createLimits(config: Config, log: Logger): Promise<RateLimits | undefined> {
  if (!config.RATE_LIMIT) return undefined;
  const options: RateLimitOptions = {
    windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
    tiers: {
      anonymous: config.RATE_LIMIT_ANONYMOUS,
      BASIC: config.RATE_LIMIT_BASIC,
      DEV: config.RATE_LIMIT_DEV,
      MAINTAINER: config.RATE_LIMIT_MAINTAINER,
      ADMIN: config.RATE_LIMIT_ADMIN,
    },
    auth: config.AUTH_RATE_LIMIT,
    pictures: config.PICTURE_RATE_LIMIT,
    loginFailures: { limit: config.LOGIN_FAILURE_LIMIT, windowMinutes: config.LOGIN_FAILURE_WINDOW_MINUTES },
    ...(config.REDIS_URL ? { redis: { url: config.REDIS_URL, timeoutMs: config.RATE_LIMIT_REDIS_TIMEOUT_MS } } : {}),
  };
  return RateLimits.open(options, log);
}

/** Where the catalog writes are kept: beside the accounts (their file's folder, or their Redis). */
export function overlayFile(config: Config): string {
  return config.CATALOG_OVERLAY_FILE ?? join(dirname(config.ACCOUNTS_FILE), 'catalog-overlay.json');
}

/**
 * The curator of the catalog writes, with the overlay applied over the served catalog, or
 * none when `CATALOG_WRITES=off` (or, under `npm run dev`, before the data is good).
 */
export async function openCurator(config: Config, served: ServedCatalog, log: Logger): Promise<Curator | undefined> {
  if (!config.CATALOG_WRITES || !served.ready) return undefined;
  const { store } = accountOptions(config);
  const overlay = await openOverlay(store, overlayFile(config), log).catch((error: Error) => {
    throw new Error(`cannot open the catalog overlay: ${error.message}`);
  });
  const curator = await Curator.open(served, overlay, log);
  log.info(`catalog writes: on, kept in ${store.kind === 'file' ? overlayFile(config) : `the accounts' Redis`}`);
  return curator;
}

/** Memory for parsed GraphQL query texts: a few thousand typical queries. */
const GRAPHQL_DOCUMENT_BYTES = 4 * 2 ** 20;

/** The GraphQL limits, from the configuration. */
function graphqlLimits(config: Config): GraphQLLimits {
  return {
    maxDepth: config.GRAPHQL_MAX_DEPTH,
    maxAliases: config.GRAPHQL_MAX_ALIASES,
    maxFields: config.GRAPHQL_MAX_FIELDS,
    maxCost: config.GRAPHQL_MAX_COST,
    maxDocumentBytes: config.GRAPHQL_MAX_DOCUMENT_BYTES,
    maxTokens: config.GRAPHQL_MAX_TOKENS,
  };
}

/** Every route of the read API, registered in matching order (fixed paths before `{uuid}`). */
export function catalogRouter(deps: RouteDeps): Router {
  const router = new Router();
  metaRoutes(router, deps);
  overviewRoutes(router, deps);
  socialRoutes(router, deps);
  for (const name of FAMILY_NAMES) {
    if (name === 'overview') continue;
    if (family(name).translation) {
      translationRoutes(router, deps, name, `/api/v1/${name}/:uuid`, positionOf);
    }
    recordRoutes(router, deps, name);
  }
  return router;
}

/**
 * The Koa application: access log, CORS, the error renderer, the request guard, routing's
 * decision, the rate limits, the bearer token check, then the routes.
 *
 * @example
 * const app = createApp(config, { served, accounts, limits, log });
 */
export function createApp(config: Config, { served, accounts, limits, log, curator }: ServiceParts, fast?: FastPath, proxy = trustProxies(config.TRUST_PROXY, log.warn)): Koa {
  const app = new Koa({ proxy: config.TRUST_PROXY > 0, maxIpsCount: config.TRUST_PROXY });
  const routeDeps: RouteDeps = {
    served,
    cacheSeconds: config.CACHE_MAX_AGE,
    maxPageSize: config.MAX_PAGE_SIZE,
    ...(config.PUBLIC_URL ? { publicUrl: config.PUBLIC_URL } : {}),
  };
  const router = catalogRouter(routeDeps);
  if (curator) writeRoutes(router, { ...routeDeps, curator });
  accountRoutes(router, accounts, limits && signInGuard(limits));
  docsRoutes(router, { served, cacheControl: `public, max-age=${config.CACHE_MAX_AGE}`, defaultLanguage: config.DEFAULT_LANGUAGE, maxPageSize: config.MAX_PAGE_SIZE, writes: curator !== undefined });
  graphqlRoutes(router, { ...routeDeps, cacheControl: `public, max-age=${config.CACHE_MAX_AGE}`, limits: graphqlLimits(config), costlyQueue: config.GRAPHQL_COSTLY_QUEUE, documentCacheBytes: GRAPHQL_DOCUMENT_BYTES, log });
  pictureRoutes(router, served);
  // Named, so that a test holds the chain to what the fast path stands in for (STANDS_IN_FOR).
  const use = <S, C>(name: StoodInFor, middleware: Koa.Middleware<Koa.DefaultState & S, Koa.DefaultContext & C>) => app.use<S, C>(Object.defineProperty(middleware, 'name', { value: name }));
  if (fast) use('remember', fast.remember());
  if (logsAccess(config)) use('accessLog', accessLog(log));
  use('cors', cors({ origin: '*', allowHeaders: ['Authorization', 'Content-Type', 'If-Match'], exposeHeaders: EXPOSED_HEADERS, maxAge: 86400 }));
  use('errorHandler', errorHandler(log));
  use('requestGuard', requestGuard());
  use('classify', classify(router));
  use('captureBase', captureBase());
  // Limits count a request before a bad token is refused, so refusals are limited too.
  if (limits) {
    const caller = async (ctx: Koa.Context) => (await bearerOf(ctx, accounts)).caller;
    use('rateLimit', rateLimit({ limits, proxy, caller }));
  }
  // Inside the error handler (its 401s render in the error shape), before every route.
  use('bearerAuth', bearerAuth(accounts));
  use('noRoute', noRoute());
  use('routes', router.routes());
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
  const { served, accounts, limits, log } = parts;
  const proxy = trustProxies(config.TRUST_PROXY, log.warn);
  const fast = new FastPath({ served, accounts, ...(limits ? { limits } : {}), proxy, log, logAccess: logsAccess(config), memory: memoryBudgets(config).fastPath });
  const app = createApp(config, parts, fast, proxy);
  return createHttpServer(fast.listener(app.callback()), serverOptions(config));
}

/** The boot line under `RATE_LIMIT=off`, which would otherwise print nothing about the limits. */
const RATE_LIMITS_OFF = 'rate limits: off (RATE_LIMIT=off): any client may send any number of requests, to /api/v1/auth/* too, and none is answered 429; for servers strangers cannot reach';

/**
 * Starts the service on a loaded catalog (none yet only under WATCH_DATA, which waits for good data): opens the accounts, creates the limits, listens,
 * says where it can be reached, watches the data when asked, and stops gracefully on
 * SIGTERM or SIGINT. Rejects with a message naming what could not be used.
 *
 * @example
 * const server = await startService(config, catalog, log);
 */
export async function startService(config: Config, catalog: Catalog | undefined, log: Logger): Promise<Server> {
  const accounts = await openAccounts(accountOptions(config), log).catch((error: Error) => {
    throw new Error(`cannot open the accounts: ${error.message}`);
  });
  const served = new ServedCatalog(catalog, memoryBudgets(config).cacheBytes);
  const curator = await openCurator(config, served, log);
  const limits = await createLimits(config, log);
  log.info(limits ? `rate limits: ${limits.driver === 'redis' ? 'shared through Redis' : 'in memory'}` : RATE_LIMITS_OFF);
  const parts: ServiceParts = { served, accounts, ...(limits ? { limits } : {}), ...(curator ? { curator } : {}), log };
  const server = await serve(createServer(config, parts), config.PORT, config.HOST).catch((error: NodeJS.ErrnoException) => {
    throw new Error(`cannot listen on ${config.HOST}:${config.PORT}: ${error.code ?? error.message}`);
  });
  const { local, network } = serverUrls(server, config.HOST);
  log.info(`listening on ${local} (bound to ${config.HOST})`);
  if (network.length) log.info(`on this machine's networks: ${network.join(', ')}`);
  if (config.WATCH_DATA) {
    reloadOnChange(served, { dir: config.DATA_DIR, defaultLanguage: config.DEFAULT_LANGUAGE, ...(curator ? { replace: (next) => curator.rebase(next) } : {}) }, log, catalog);
    log.info(`watching ${config.DATA_DIR}: every edit is checked and served without a restart`);
  }
  stopOnSignals(server, {
    graceMs: config.SHUTDOWN_GRACE_SECONDS * 1000,
    log: log.info,
    cleanup: async () => {
      curator?.close();
      await limits?.close();
      accounts.close();
      await log.close();
    },
  });
  return server;
}
