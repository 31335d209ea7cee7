import type { Redis } from 'ioredis';
import { SweptMap } from './swept-map.ts';

/**
 * Failed logins per username, whatever the address they came from: after `max` failures in a
 * window the username is refused until the window ends, so guessing a password from many
 * addresses is as slow as from one.
 */
export interface LoginFailures {
  /** Seconds until `username` may try again, or 0 when it may try now. */
  wait(username: string): Promise<number>;
  /** Counts one failed attempt. */
  record(username: string): Promise<void>;
}

/**
 * Failures counted in this process.
 *
 * @example
 * const failures = new MemoryLoginFailures(5, 15 * 60_000);
 * await failures.record('iris'); // after the 5th, failures.wait('iris') > 0
 */
export class MemoryLoginFailures implements LoginFailures {
  private readonly counts: SweptMap<{ count: number; reset: number }>;

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {
    this.counts = new SweptMap(windowMs);
  }

  async wait(username: string): Promise<number> {
    const entry = this.counts.map.get(username.toLowerCase());
    const left = entry ? entry.reset - Date.now() / 1000 : 0;
    return entry && entry.count >= this.max && left > 0 ? Math.ceil(left) : 0;
  }

  async record(username: string): Promise<void> {
    const key = username.toLowerCase();
    const entry = this.counts.map.get(key);
    if (entry && entry.reset * 1000 > Date.now()) entry.count++;
    else this.counts.map.set(key, { count: 1, reset: (Date.now() + this.windowMs) / 1000 });
  }

  stop(): void {
    this.counts.stop();
  }
}

/**
 * Failures counted in Redis (a fixed window per username), shared by every instance. When
 * Redis fails, `wait` answers 0: logins go on, and Redis errors are logged where the
 * client is made.
 */
export class RedisLoginFailures implements LoginFailures {
  constructor(
    private readonly redis: Redis,
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  private key(username: string): string {
    return `login-failures:${username.toLowerCase()}`;
  }

  async wait(username: string): Promise<number> {
    try {
      const [[, count], [, ttl]] = (await this.redis.multi().get(this.key(username)).pttl(this.key(username)).exec()) as [
        [unknown, string | null],
        [unknown, number],
      ];
      return Number(count) >= this.max && ttl > 0 ? Math.ceil(ttl / 1000) : 0;
    } catch {
      return 0;
    }
  }

  async record(username: string): Promise<void> {
    try {
      await this.redis.multi().incr(this.key(username)).pexpire(this.key(username), this.windowMs, 'NX').exec();
    } catch {
      // Fail open, as the rate limits do: the failure is logged by the client's error handler.
    }
  }
}
