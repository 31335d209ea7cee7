import { createServer as createNodeServer, type Server } from 'node:http';
import cors from '@koa/cors';
import { Router } from '@koa/router';
import Koa from 'koa';
import compress from 'koa-compress';
import type { Config } from './config/env.ts';
import type { Logger } from './config/logger.ts';
import { FAMILY_NAMES } from './catalog/families.ts';
import { accessLog } from './http/access-log.ts';
import { errorHandler } from './http/errors.ts';
import { FastPath } from './http/fast-path.ts';
import { EXPOSED_HEADERS } from './http/headers.ts';
import type { RouteDeps } from './http/routes/context.ts';
import { metaRoutes, overviewRoutes } from './http/routes/meta.ts';
import { recordRoutes } from './http/routes/records.ts';
import { socialRoutes } from './http/routes/socials.ts';
import { translationRoutes } from './http/routes/translations.ts';
import { positionOf } from './http/routes/context.ts';
import type { ServedCatalog } from './http/state.ts';
import { byAccount } from './http/rate-limit-clients.ts';
import type { Limits } from './limits/limits.ts';
import { bearerAuth } from './http/bearer.ts';
import { accountRoutes } from './http/routes/accounts.ts';
import { docsRoutes } from './docs/routes.ts';
import type { AccountService } from './accounts/service.ts';

export interface AppOptions {
  served: ServedCatalog;
  config: Config;
  log: Logger;
  accounts: AccountService;
  /** Rate limits; none when `RATE_LIMIT=off`. */
  limits?: Limits;
}

/** Every route of the read API, registered in matching order (fixed paths before `{uuid}`). */
export function catalogRouter(deps: RouteDeps): Router {
  const router = new Router();
  metaRoutes(router, deps);
  overviewRoutes(router, deps);
  socialRoutes(router, deps);
  for (const name of FAMILY_NAMES) {
    if (name === 'overview') continue;
    if (deps.served.current.catalog.store(name).family.translation) {
      translationRoutes(router, deps, name, `/api/v1/${name}/:uuid`, positionOf);
    }
    recordRoutes(router, deps, name);
  }
  return router;
}

/**
 * The Koa application: access log, CORS, compression, the error renderer, the bearer token
 * check and rate limits around the read routes and the account routes.
 *
 * @example
 * const app = createApp({ served: new ServedCatalog(catalog, 0), config, log, accounts });
 * app.listen(3000);
 */
export function createApp({ served, config, log, accounts, limits }: AppOptions, fast?: FastPath): Koa {
  const app = new Koa({ proxy: config.TRUST_PROXY });
  const router = catalogRouter({ served, config });
  accountRoutes(router, accounts, limits?.loginGuard());
  docsRoutes(router, { served, config });
  if (fast) app.use(fast.remember());
  if (config.LOG_LEVEL === 'info') app.use(accessLog(log));
  app.use(cors({ origin: '*', allowHeaders: ['Authorization', 'Content-Type'], exposeHeaders: EXPOSED_HEADERS, maxAge: 86400 }));
  app.use(compress({ threshold: 1024 }));
  app.use(errorHandler(log));
  // Limits count a request before a bad token is refused, so refusals are limited too.
  if (limits) app.use(limits.middleware(byAccount(accounts)));
  // Inside the error handler (its 401s render in the error shape), before every route.
  app.use(bearerAuth(accounts));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

/**
 * The HTTP server of the app. Without rate limits, repeated reads are answered by the fast
 * path (see fast-path.ts) and everything else by Koa.
 *
 * @example
 * const server = await serve(createServer({ served, config, log, accounts }), 3000, '0.0.0.0');
 */
export function createServer(options: AppOptions): Server {
  const fast = options.limits ? undefined : new FastPath(options.served, options.log, options.config.LOG_LEVEL === 'info');
  const app = createApp(options, fast);
  return createNodeServer(fast ? fast.listener(app.callback()) : app.callback());
}
