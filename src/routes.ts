import type Koa from 'koa';
import type { Config } from './config/env.ts';
import { collectionRoutes } from './docs/collection-routes.ts';
import { docsRoutes } from './docs/routes.ts';
import { clientPackageRoutes } from './http/routes/client-package.ts';
import { bearerAuth, bearerOf } from './http/bearer.ts';
import { CatalogWriter } from './http/catalog-writer.ts';
import type { ChangeStreams } from './http/change-streams.ts';
import { rateLimit, type ProxyTrust } from './http/rate-limit.ts';
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
import { signInGuard } from './http/sign-in-guard.ts';
import { simulation } from './http/simulation.ts';
import { writeRoutes } from './http/routes/writes.ts';
import { changeRoutes } from './http/routes/changes.ts';
import { boardRoutes } from './http/board-page.ts';
import { sandboxRoutes, sandboxView } from './http/routes/sandbox.ts';
import { GRAPHQL_DOCUMENT_BYTES, graphqlLimits, type ServiceParts } from './parts.ts';

/** Every route of the read API, registered in matching order (fixed paths before `{uuid}`). */
export function catalogRoutes(routes: RouteTable, deps: RouteDeps): void {
  addReadRoutes(routes, deps, [apiInfo(deps)]);
  metaRoutes(routes, deps);
  addReadRoutes(routes, deps, catalogReads(deps));
}

/**
 * Every route of the service, each request admitted by the rate limits and the bearer token check in the budget
 * of the route that serves it: the reads, the change feed, the writes (and in classroom mode the sandboxes and the
 * board) when a curator takes them, the accounts, the documentation, GraphQL and the pictures.
 *
 * @example
 * app.use(serviceRoutes(config, { served, feed, streams, accounts, limits, log }, proxy).middleware());
 */
export function serviceRoutes(
  config: Config,
  { served, feed, streams, accounts, limits, log, curator, sandboxes }: ServiceParts & { streams: ChangeStreams },
  proxy: ProxyTrust,
): RouteTable {
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
  // What the OpenAPI document says of this deployment: the reference and the collections made from it.
  const document = {
    defaultLanguage: config.DEFAULT_LANGUAGE,
    maxPageSize: config.MAX_PAGE_SIZE,
    maxCsvRows: config.CSV_MAX_ROWS,
    writes: writer !== undefined,
    sandboxes: writer?.sandboxes !== undefined,
    simulation: config.SIMULATE,
  };
  docsRoutes(routes, { served, cacheControl, ...document });
  clientPackageRoutes(routes, cacheControl);
  collectionRoutes(routes, {
    served,
    cacheControl,
    ...document,
    ...(config.PUBLIC_URL ? { publicUrl: config.PUBLIC_URL } : {}),
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
  return routes;
}
