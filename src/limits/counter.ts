import type { Redis } from 'ioredis';
import type { Context, Middleware } from 'koa';
import ratelimit from 'koa-ratelimit';

/** What a counter says of one request: may it pass, and the state of its budget. */
export interface Verdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When the budget refills, in epoch seconds (fractional). */
  reset: number;
}

/** Where counters live: one Map for the process, or a Redis shared by every instance. */
export type CounterStore = { driver: 'memory'; map: Map<string, unknown> } | { driver: 'redis'; redis: Redis };

const REMAINING = 'remaining';
const RESET = 'reset';
const TOTAL = 'total';

/**
 * The few members of a Koa context koa-ratelimit touches. Each check gets its own, so a
 * Redis answer that arrives after the request moved on cannot write into the real response.
 */
class Probe {
  readonly state: Record<string, unknown> = {};
  readonly headers: Record<string, unknown> = {};
  status = 200;
  body: unknown;

  constructor(readonly key: string) {}

  set(name: string | Record<string, unknown>, value?: unknown): void {
    if (typeof name === 'string') this.headers[name] = value;
    else Object.assign(this.headers, name);
  }
}

/**
 * One budget of `max` requests per `windowMs` per key, counted by koa-ratelimit (its memory
 * or Redis driver) under `namespace`.
 *
 * @example
 * const anonymous = new Counter({ driver: 'memory', map: new Map() }, 'anonymous', 60, 60_000);
 * await anonymous.check('ip:203.0.113.7'); // { allowed: true, limit: 60, remaining: 59, reset: 1795... }
 */
export class Counter {
  private readonly middleware: Middleware;

  constructor(store: CounterStore, namespace: string, max: number, windowMs: number) {
    this.middleware = ratelimit({
      ...(store.driver === 'memory' ? { driver: 'memory', db: store.map } : { driver: 'redis', db: store.redis }),
      namespace,
      max,
      duration: windowMs,
      id: (ctx) => (ctx as unknown as Probe).key,
      headers: { remaining: REMAINING, reset: RESET, total: TOTAL },
    });
  }

  /** Counts one request of `key`; rejects when the store fails (a Redis timeout, say). */
  async check(key: string): Promise<Verdict> {
    const probe = new Probe(key);
    let allowed = false;
    await this.middleware(probe as unknown as Context, async () => {
      allowed = true;
    });
    return {
      allowed,
      limit: Number(probe.headers[TOTAL]),
      remaining: Number(probe.headers[REMAINING]),
      reset: Number(probe.headers[RESET]),
    };
  }
}
