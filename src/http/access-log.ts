import type { Middleware } from 'koa';
import type { Logger } from '../config/logger.ts';

/** One line per request once it is answered: `GET /api/v1/actors 200 1.4ms`. */
export function accessLog(log: Logger): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      log.access(ctx.method, ctx.path, ctx.status, performance.now() - started);
    }
  };
}
