import type { Context, Middleware } from 'koa';
import { anonymousClient, clientAddress, type Client } from '../limits/client.ts';
import type { RateLimits } from '../limits/rate-limits.ts';
import type { Caller } from '../accounts/account.ts';
import { HttpError } from '../lib/http-error.ts';
import type { RouteState } from './routing.ts';

/** How the limits see requests: the budgets, and how many proxies stand in front. */
export interface RateLimitMiddlewareOptions {
  limits: RateLimits;
  /** Proxies in front of the service that append to `X-Forwarded-For` (0: none). */
  proxyHops: number;
  /** The request's caller when it sends a valid bearer token. */
  caller: (ctx: Context) => Promise<Caller | undefined>;
}

/**
 * Whom a request counts against: its account (in the tier of the account's current role)
 * when `caller` is known, else its address.
 *
 * @example
 * requestClient(undefined, '10.0.0.2', '203.0.113.7', 1); // { key: 'ip:203.0.113.7', tier: 'anonymous', ... }
 */
export function requestClient(caller: Caller | undefined, peer: string | undefined, forwardedFor: string | undefined, hops: number): Client {
  if (caller) return { key: `account:${caller.uuid}`, tier: caller.role, name: `account '${caller.username}'` };
  return anonymousClient(clientAddress(peer, forwardedFor, hops));
}

/**
 * Counts every request but CORS preflights in the budget its route decided (see
 * `classify`): the auth endpoints per address, everything else per account or address.
 * Sets the limit headers; over the budget, throws the 429. A request whose token is then
 * refused counts as its address, so floods of bad tokens are limited too.
 */
export function rateLimit({ limits, proxyHops, caller }: RateLimitMiddlewareOptions): Middleware<RouteState> {
  return async (ctx, next) => {
    const { budget } = ctx.state.route;
    if (ctx.method === 'OPTIONS' || budget === 'free') return next();
    const who = budget === 'auth' ? undefined : await caller(ctx as unknown as Context);
    const client = requestClient(who, ctx.req.socket.remoteAddress, ctx.get('X-Forwarded-For'), proxyHops);
    const admission = await limits.admit(budget, client);
    if (admission) {
      ctx.set(admission.headers);
      if (admission.refusal) throw new HttpError(429, admission.refusal.message, admission.refusal.headers);
    }
    await next();
  };
}
