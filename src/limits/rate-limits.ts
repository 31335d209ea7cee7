import type { Redis } from 'ioredis';
import type { Logger } from '../config/logger.ts';
import { HttpError } from '../lib/http-error.ts';
import type { Client } from './client.ts';
import { limitHeaders, retryHeaders, type LimitHeaders } from './headers.ts';
import { MemoryCounter } from './memory-counter.ts';
import { connectRedis, shownRedis, whenReady } from '../lib/redis.ts';
import { RedisCounter } from './redis-counter.ts';
import { TIERS, type Tier } from './tiers.ts';
import type { Verdict, WindowCounter } from './window-counter.ts';

/** The budget a request is counted in: the read API's tiers, or the auth endpoints' or the pictures' own. */
export type Budget = 'api' | 'auth' | 'pictures';

/** What the limits need to know; `Infinity` means unlimited. */
export interface RateLimitOptions {
  windowSeconds: number;
  tiers: Record<Tier, number>;
  /** Requests per window to the auth endpoints, per address. */
  auth: number;
  /** Requests per window for the catalog's pictures (`/images/…`), per address; unlimited when left out. */
  pictures?: number;
  loginFailures: { limit: number; windowMinutes: number };
  /** Share the counters through this Redis; in memory without it. */
  redis?: { url: string; timeoutMs: number };
}

/**
 * The outcome of counting one request: headers for its answer and, over the budget, what
 * its 429 says (plain data: a refusal flood must cost no more than answers do, and an Error
 * would capture a stack trace each time).
 */
export interface Admission {
  /** The limit headers, as name, value pairs. */
  headers: string[];
  refusal?: { message: string; headers: Record<string, string> };
}

/** A budget requests are counted in: its counter, its policy's name and its answers' headers. */
interface Counted {
  counter: WindowCounter;
  policy: string;
  headers: LimitHeaders;
}

/**
 * The rate limits of one process: a window counter per tier, one for the auth endpoints
 * per address, one for the pictures per address (so pictures never use up a reader's budget,
 * nor flood unlimited), and one of failed sign-ins per username; all in memory or all in one Redis.
 * A failing Redis lets requests through (logged at most every ten seconds).
 *
 * @example
 * const limits = await RateLimits.open(options, log);
 * const admission = await limits.admit('api', anonymousClient('203.0.113.7'));
 * if (admission?.refusal) throw new HttpError(429, admission.refusal.message, admission.refusal.headers);
 */
export class RateLimits {
  private readonly tiers = new Map<Tier, Counted>();
  private readonly auth?: Counted;
  private readonly pictures?: Counted;
  private readonly failures?: WindowCounter;
  private readonly redis?: Redis;
  private lastWarning = 0;

  /** The limits `options` describe, connected to Redis first when they name one. */
  static async open(options: RateLimitOptions, log: Logger): Promise<RateLimits> {
    const { redis } = options;
    if (!redis) return new RateLimits(options, log);
    const where = `redis ${shownRedis(redis.url)}`;
    const client = await connectRedis(redis.url, {
      timeoutMs: redis.timeoutMs,
      onDown: (error) =>
        log.warn(
          `${where} unreachable (${error.message}): requests are served without shared rate limits until it returns`,
        ),
      onBack: () => log.warn(`${where} is back: rate limits are shared again`),
    });
    // Counted in Redis from the first request on; a Redis still away after this goes on as down.
    if (!(await whenReady(client, 5000)))
      log.warn(`${where} did not answer within 5 s: requests are served without shared rate limits until it does`);
    return new RateLimits(options, log, client);
  }

  private constructor(
    private readonly options: RateLimitOptions,
    private readonly log: Logger,
    redis?: Redis,
  ) {
    const windowMs = options.windowSeconds * 1000;
    this.redis = redis;
    const counter = (namespace: string, limit: number, ms: number): WindowCounter | undefined => {
      if (!Number.isFinite(limit)) return undefined;
      return this.redis ? new RedisCounter(this.redis, namespace, limit, ms) : new MemoryCounter(limit, ms);
    };
    const counted = (namespace: string, limit: number, policy: string): Counted | undefined => {
      const found = counter(namespace, limit, windowMs);
      return found && { counter: found, policy, headers: limitHeaders(policy, limit, options.windowSeconds) };
    };
    for (const tier of TIERS) {
      const found = counted(`rate:${tier}`, options.tiers[tier], tier.toLowerCase());
      if (found) this.tiers.set(tier, found);
    }
    this.auth = counted('rate:auth', options.auth, 'auth');
    this.pictures = counted('rate:pictures', options.pictures ?? Infinity, 'pictures');
    this.failures = counter(
      'login-failures',
      options.loginFailures.limit,
      options.loginFailures.windowMinutes * 60_000,
    );
  }

  get driver(): 'redis' | 'memory' {
    return this.redis ? 'redis' : 'memory';
  }

  /**
   * Counts one request of `client` in `budget`. Undefined when it is not limited at all (an
   * unlimited tier, or a store that failed). Answers at once (no promise) from the memory
   * counters, so the fast path stays synchronous; Redis answers are promises.
   */
  admit(budget: Budget, client: Client): Admission | undefined | Promise<Admission | undefined> {
    const counted = budget === 'auth' ? this.auth : budget === 'pictures' ? this.pictures : this.tiers.get(client.tier);
    if (!counted) return undefined;
    let verdict: Verdict | Promise<Verdict>;
    try {
      verdict = counted.counter.hit(client.key);
    } catch (error) {
      return this.failed(error);
    }
    if (verdict instanceof Promise)
      return verdict.then(
        (found) => this.admission(counted, budget, client, found),
        (error: unknown) => this.failed(error),
      );
    return this.admission(counted, budget, client, verdict);
  }

  private admission(
    { policy, headers: headersOf }: Counted,
    budget: Budget,
    client: Client,
    verdict: Verdict,
  ): Admission {
    const now = Date.now();
    const headers = headersOf(verdict, now);
    if (verdict.allowed) return { headers };
    const after = Math.max(1, Math.ceil((verdict.reset - now) / 1000));
    const what =
      budget === 'api' ? `the ${policy} tier allows` : `the ${budget === 'auth' ? 'auth endpoints' : 'pictures'} allow`;
    const message =
      `Too many requests from ${client.name}: ${what} ${verdict.limit} per ${this.options.windowSeconds} s; retry ` +
      `in ${after} s`;
    return { headers, refusal: { message, headers: retryHeaders(after) } };
  }

  /** A 429 when `username` has used up its failed sign-ins (whatever the address), else undefined. */
  async signInRefusal(username: string): Promise<HttpError | undefined> {
    const failures = this.failures;
    const verdict = failures && (await this.count(() => failures.peek(username.toLowerCase())));
    if (!verdict || verdict.remaining > 0) return undefined;
    const wait = Math.max(1, Math.ceil((verdict.reset - Date.now()) / 1000));
    return new HttpError(
      429,
      `Too many failed sign-ins for username '${username}'; retry in ${wait} s`,
      retryHeaders(wait),
    );
  }

  /** Counts one failed sign-in of `username`. */
  async signInFailed(username: string): Promise<void> {
    const failures = this.failures;
    if (failures) await this.count(() => failures.hit(username.toLowerCase()));
  }

  async close(): Promise<void> {
    this.redis?.disconnect();
  }

  private async count(hit: () => Verdict | Promise<Verdict>): Promise<Verdict | undefined> {
    try {
      return await hit();
    } catch (error) {
      return this.failed(error);
    }
  }

  /** A store failure lets the request through; it is logged at most every ten seconds. */
  private failed(error: unknown): undefined {
    if (Date.now() - this.lastWarning > 10_000) {
      this.lastWarning = Date.now();
      this.log.warn(`rate limit not applied (${(error as Error).message}); serving unlimited`);
    }
    return undefined;
  }
}
