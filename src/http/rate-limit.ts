import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Context, Middleware } from 'koa';
import { anonymousClient, clientAddress, type Client } from '../limits/client.ts';
import type { Admission, RateLimits } from '../limits/rate-limits.ts';
import type { Caller } from '../accounts/account.ts';
import { HttpError } from '../lib/http-error.ts';
import type { RouteState } from './routing.ts';

/** The proxies in front of the service, and who hears that one sent a malformed `X-Forwarded-For`. */
export interface ProxyTrust {
  /** Proxies that append to `X-Forwarded-For` (0: none). */
  hops: number;
  malformed: (entry: string) => void;
}

/**
 * The proxy trust of `TRUST_PROXY=hops`: a trusted `X-Forwarded-For` entry that is not an
 * address is said once through `warn` (a misconfiguration, not an event per request).
 *
 * @example
 * const proxy = trustProxies(1, log.warn);
 */
export function trustProxies(hops: number, warn: (line: string) => void): ProxyTrust {
  let warned = false;
  return {
    hops,
    malformed: (entry) => {
      if (warned) return;
      warned = true;
      const shown = JSON.stringify(entry.slice(0, 64));
      warn(
        `X-Forwarded-For: the entry ${hops} from the right (TRUST_PROXY=${hops}) is ${shown}, not an IP address; ` +
          `such requests count against the connection's address. Check the proxy's header or TRUST_PROXY (said ` +
          `once)`,
      );
    },
  };
}

/** How the limits see requests: the budgets, and the proxies in front. */
export interface RateLimitMiddlewareOptions {
  limits: RateLimits;
  proxy: ProxyTrust;
  /** The request's caller when it sends a valid bearer token. */
  caller: (ctx: Context) => Promise<Caller | undefined>;
}

/** Requests the fast path counted before handing them to Koa, with what the count said. */
const counted = new WeakMap<IncomingMessage, Admission | undefined>();

/**
 * Notes that `req` was counted (by the fast path), so that the limits middleware does not
 * count it again: a request is counted once, whichever path answers it.
 */
export function countedBefore(req: IncomingMessage, admission: Admission | undefined): void {
  counted.set(req, admission);
}

/** The client each caller is, kept while the caller is (a token's requests name one caller object). */
const accountClients = new WeakMap<Caller, Client>();

function accountClient(caller: Caller): Client {
  let client = accountClients.get(caller);
  if (!client)
    accountClients.set(
      caller,
      (client = { key: `account:${caller.uuid}`, tier: caller.role, name: `account '${caller.username}'` }),
    );
  return client;
}

/**
 * The anonymous client of each connection when no proxy is trusted: its peer address never
 * changes, so a keep-alive client's requests skip reading and looking up the address again.
 */
const connectionClients = new WeakMap<Socket, Client>();

/**
 * Whom `req` counts against: its account (in the tier of the account's current role) when
 * `caller` is known, else its address (the connection's peer, or behind trusted proxies the
 * `X-Forwarded-For` entry they wrote).
 *
 * @example
 * requestClient(undefined, req, trustProxies(1, log.warn)); // { key: 'ip:203.0.113.7', tier: 'anonymous', ... }
 */
export function requestClient(caller: Caller | undefined, req: IncomingMessage, proxy: ProxyTrust): Client {
  if (caller) return accountClient(caller);
  const { socket } = req;
  if (proxy.hops === 0) {
    let client = connectionClients.get(socket);
    if (!client) connectionClients.set(socket, (client = anonymousClient(socket.remoteAddress ?? '')));
    return client;
  }
  const forwardedFor = req.headers['x-forwarded-for'];
  return anonymousClient(
    clientAddress(
      socket.remoteAddress,
      Array.isArray(forwardedFor) ? forwardedFor.join(', ') : forwardedFor,
      proxy.hops,
      proxy.malformed,
    ),
  );
}

/**
 * Counts every request but CORS preflights in the budget its route decided (see
 * `classify`): the auth endpoints and the pictures per address, everything else per account or address.
 * Sets the limit headers; over the budget, throws the 429. A request whose token is then
 * refused counts as its address, so floods of bad tokens are limited too.
 */
export function rateLimit({ limits, proxy, caller }: RateLimitMiddlewareOptions): Middleware<RouteState> {
  const clientOf = async (ctx: Context, budget: RouteState['route']['budget']) => {
    const who = budget === 'api' ? await caller(ctx) : undefined;
    return requestClient(who, ctx.req, proxy);
  };
  return async (ctx, next) => {
    const { budget } = ctx.state.route;
    if (ctx.method === 'OPTIONS' || budget === 'free') return next();
    const admission = counted.has(ctx.req)
      ? counted.get(ctx.req)
      : await limits.admit(budget, await clientOf(ctx, budget));
    if (admission) {
      const { headers } = admission;
      for (let i = 0; i < headers.length; i += 2) ctx.set(headers[i]!, headers[i + 1]!);
      if (admission.refusal) throw new HttpError(429, admission.refusal.message, admission.refusal.headers);
    }
    await next();
  };
}
