import type { Middleware } from 'koa';
import { HttpError } from '../lib/http-error.ts';
import type { RateLimits } from '../limits/rate-limits.ts';

/**
 * Guards sign-in and deletion (after the body is parsed): a username with too many recent
 * failed sign-ins gets a 429 whatever the address, and each 401 counts as one more failure.
 *
 * @example
 * accountRoutes(router, accounts, signInGuard(limits));
 */
export function signInGuard(limits: RateLimits): Middleware {
  return async (ctx, next) => {
    const username = (ctx.request as { body?: { username?: unknown } }).body?.username;
    if (typeof username !== 'string') return next();
    const refusal = await limits.signInRefusal(username);
    if (refusal) throw refusal;
    try {
      await next();
    } catch (error) {
      if (error instanceof HttpError && error.status === 401) await limits.signInFailed(username);
      throw error;
    }
  };
}
