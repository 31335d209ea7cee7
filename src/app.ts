import type { Server } from 'node:http';
import cors from '@koa/cors';
import Koa from 'koa';
import type { Config } from './config/env.ts';
import { accessLog } from './http/access-log.ts';
import { ChangeStreams } from './http/change-streams.ts';
import { errorHandler } from './http/errors.ts';
import { FastPath } from './http/fast-path.ts';
import { EXPOSED_HEADERS } from './http/headers.ts';
import { trustProxies } from './http/rate-limit.ts';
import { captureBase } from './http/replayed-headers.ts';
import { requestGuard } from './http/request-guard.ts';
import { createHttpServer, type ServerOptions } from './http/serve.ts';
import type { StoodInFor } from './http/stand-ins.ts';
import { logsAccess, memoryBudgets, streamOptions, type ServiceParts } from './parts.ts';
import { serviceRoutes } from './routes.ts';

/**
 * The Koa application: access log, CORS, the error renderer, the request guard, then the
 * routes (`serviceRoutes`), each request admitted by the rate limits and the bearer token check
 * in the budget of the route that serves it.
 *
 * @example
 * const app = createApp(config, { served, accounts, limits, log });
 */
export function createApp(
  config: Config,
  parts: ServiceParts,
  fast?: FastPath,
  proxy = trustProxies(config.TRUST_PROXY, parts.log.warn),
): Koa {
  const { log, streams = new ChangeStreams(parts.feed, streamOptions(config)) } = parts;
  const app = new Koa({ proxy: config.TRUST_PROXY > 0, maxIpsCount: config.TRUST_PROXY });
  const routes = serviceRoutes(config, { ...parts, streams }, proxy);
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
