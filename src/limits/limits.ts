import type { Redis } from 'ioredis';
import type { Context, Middleware } from 'koa';
import type { Config } from '../config/env.ts';
import type { Logger } from '../config/logger.ts';
import { HttpError } from '../lib/http-error.ts';
import { Counter, type CounterStore, type Verdict } from './counter.ts';
import { limitHeaders, retryHeaders } from './headers.ts';
import { MemoryLoginFailures, RedisLoginFailures, type LoginFailures } from './login-failures.ts';
import { connectRedis } from './redis.ts';
import { SweptMap } from './swept-map.ts';
import { TIERS, tierLimits, type Tier } from './tiers.ts';

/** Whom a request counts against: a key for the counter, its tier, and a name for messages. */
export interface Client {
  key: string;
  tier: Tier;
  name: string;
}

/** Finds whom a request counts against (its account for a valid token, else its address). */
export type Identify = (ctx: Context) => Promise<Client>;

/** The client as its address alone: every request without an account, and all auth requests. */
export function byAddress(ctx: Context): Client {
  return { key: `ip:${ctx.ip}`, tier: 'anonymous', name: `address ${ctx.ip}` };
}

/**
 * Rate limits of one process: a budget per tier, a stricter one per address for the auth
 * endpoints and the per-username login failures, kept in memory or in a shared Redis.
 *
 * @example
 * const limits = createLimits(config, log);
 * app.use(limits.middleware(async (ctx) => byAddress(ctx)));
 */
export class Limits {
  private readonly tiers = new Map<Tier, Counter>();
  private readonly auth?: Counter;
  private lastWarning = 0;

  constructor(
    private readonly store: CounterStore,
    private readonly windowSeconds: number,
    limits: Record<Tier, number>,
    authLimit: number,
    readonly loginFailures: LoginFailures,
    private readonly log: Logger,
    private readonly stopStore: () => Promise<void>,
  ) {
    for (const tier of TIERS) {
      if (Number.isFinite(limits[tier])) this.tiers.set(tier, new Counter(store, `rate:${tier}`, limits[tier], windowSeconds * 1000));
    }
    if (Number.isFinite(authLimit)) this.auth = new Counter(store, 'rate:auth', authLimit, windowSeconds * 1000);
  }

  get driver(): CounterStore['driver'] {
    return this.store.driver;
  }

  /** Counts the request; `undefined` when the store failed and the request goes through. */
  private async count(counter: Counter, key: string): Promise<Verdict | undefined> {
    try {
      return await counter.check(key);
    } catch (error) {
      // Fail open, and say so at most every ten seconds: an outage must not flood the log.
      if (Date.now() - this.lastWarning > 10_000) {
        this.lastWarning = Date.now();
        this.log.warn(`rate limit not applied (${(error as Error).message}); serving unlimited`);
      }
      return undefined;
    }
  }

  /** Limits every `/api` request but CORS preflights; auth endpoints count per address. */
  middleware(identify: Identify): Middleware {
    return async (ctx, next) => {
      if (ctx.method === 'OPTIONS' || !ctx.path.startsWith('/api')) return next();
      const auth = ctx.path.startsWith('/api/v1/auth/');
      const client = auth ? byAddress(ctx) : await identify(ctx);
      const counter = auth ? this.auth : this.tiers.get(client.tier);
      const verdict = counter && (await this.count(counter, client.key));
      if (verdict) {
        const policy = auth ? 'auth' : client.tier.toLowerCase();
        const now = Date.now() / 1000;
        ctx.set(limitHeaders(policy, verdict, this.windowSeconds, now));
        if (!verdict.allowed) {
          const after = Math.max(1, Math.ceil(verdict.reset - now));
          const what = auth ? 'the auth endpoints' : `the ${policy} tier`;
          throw new HttpError(
            429,
            `Too many requests from ${client.name}: ${what} allow ${verdict.limit} per ${this.windowSeconds} s; retry in ${after} s`,
            retryHeaders(after),
          );
        }
      }
      await next();
    };
  }

  /**
   * Guards sign-in and deletion (after the body is parsed): a username with too many recent
   * failures gets a 429 whatever the address, and each 401 counts as one more failure.
   */
  loginGuard(): Middleware {
    return async (ctx, next) => {
      const username = (ctx.request as { body?: { username?: unknown } }).body?.username;
      if (typeof username !== 'string') return next();
      const wait = await this.loginFailures.wait(username);
      if (wait > 0) {
        throw new HttpError(429, `Too many failed sign-ins for username '${username}'; retry in ${wait} s`, retryHeaders(wait));
      }
      try {
        await next();
      } catch (error) {
        if (error instanceof HttpError && error.status === 401) await this.loginFailures.record(username);
        throw error;
      }
    };
  }

  close(): Promise<void> {
    return this.stopStore();
  }
}

/**
 * The limits `config` asks for: in Redis when `REDIS_URL` is set, else in this process.
 * (`RATE_LIMIT=off` is honoured by the caller, which then installs no limits at all.)
 */
export function createLimits(config: Config, log: Logger): Limits {
  const windowMs = config.RATE_LIMIT_WINDOW_SECONDS * 1000;
  const failureWindowMs = config.LOGIN_FAILURE_WINDOW_MINUTES * 60_000;
  const build = (store: CounterStore, failures: LoginFailures, stop: () => Promise<void>) =>
    new Limits(store, config.RATE_LIMIT_WINDOW_SECONDS, tierLimits(config), config.AUTH_RATE_LIMIT, failures, log, stop);
  if (config.REDIS_URL) {
    const redis: Redis = connectRedis(config.REDIS_URL, config.RATE_LIMIT_REDIS_TIMEOUT_MS, log);
    const failures = new RedisLoginFailures(redis, config.LOGIN_FAILURE_LIMIT, failureWindowMs);
    return build({ driver: 'redis', redis }, failures, async () => void redis.disconnect());
  }
  const counters = new SweptMap(windowMs);
  const failures = new MemoryLoginFailures(config.LOGIN_FAILURE_LIMIT, failureWindowMs);
  return build({ driver: 'memory', map: counters.map }, failures, async () => {
    counters.stop();
    failures.stop();
  });
}
