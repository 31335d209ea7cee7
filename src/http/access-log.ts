import type { Middleware } from 'koa';
import type { Logger } from '../config/logger.ts';

/**
 * The access line of one answered request.
 *
 * @example
 * accessLine('GET', '/api/v1/actors', 200, 1.43); // 'GET /api/v1/actors 200 1.4ms'
 */
export function accessLine(method: string, path: string, status: number, ms: number): string {
  return `${method} ${path} ${status} ${ms.toFixed(1)}ms`;
}

/** One line per request once it is answered: `GET /api/v1/actors 200 1.4ms`. */
export function accessLog(log: Logger): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      log.info(accessLine(ctx.method, ctx.path, ctx.status, performance.now() - started));
    }
  };
}
