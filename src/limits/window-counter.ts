/** What a counter says of one key after counting (or peeking at) a request. */
export interface Verdict {
  /** The count is within the budget. */
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When the key's window ends, in epoch milliseconds. */
  reset: number;
}

/**
 * A fixed-window budget of `limit` per key: a key's window starts at its first request and
 * lasts `windowMs`; past it the key starts over. One abstraction for every budget (tiers,
 * auth endpoints, failed sign-ins), in memory or in Redis.
 */
export interface WindowCounter {
  readonly limit: number;
  readonly windowMs: number;
  /** Counts one request of `key`. Rejects only when the store fails (Redis down or slow). */
  hit(key: string): Verdict | Promise<Verdict>;
  /** The key's state without counting. */
  peek(key: string): Verdict | Promise<Verdict>;
}

/**
 * The verdict for a key counted `count` times in a window ending at `reset`.
 *
 * @example
 * verdictOf(61, 60, Date.now() + 5_000).allowed; // false
 */
export function verdictOf(count: number, limit: number, reset: number): Verdict {
  return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), reset };
}
