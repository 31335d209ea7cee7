import type { Redis } from 'ioredis';
import { verdictOf, type Verdict, type WindowCounter } from './window-counter.ts';

/**
 * Counts one request and reads the window's end in one round trip: the first request of a
 * window sets the key's expiry, so the key itself is the window.
 */
const HIT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

const PEEK = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
return {count, redis.call('PTTL', KEYS[1])}`;

type Scripted = Redis & {
  windowHit(key: string, windowMs: number): Promise<[number, number]>;
  windowPeek(key: string): Promise<[number, number]>;
};

/** Teaches `redis` the two scripts (sent once, then called by hash). */
function scripted(redis: Redis): Scripted {
  const commands = redis as Scripted;
  if (typeof commands.windowHit !== 'function') {
    redis.defineCommand('windowHit', { numberOfKeys: 1, lua: HIT });
    redis.defineCommand('windowPeek', { numberOfKeys: 1, lua: PEEK });
  }
  return commands;
}

/**
 * A window counter in Redis, shared by every instance that uses the same Redis and
 * `namespace`. Each call is one round trip (a Lua script); a failure or timeout of Redis
 * rejects, and the caller decides to let the request through.
 *
 * @example
 * const auth = new RedisCounter(redis, 'rate:auth', 10, 60_000);
 * await auth.hit('203.0.113.7');
 */
export class RedisCounter implements WindowCounter {
  private readonly redis: Scripted;

  constructor(
    redis: Redis,
    private readonly namespace: string,
    readonly limit: number,
    readonly windowMs: number,
  ) {
    this.redis = scripted(redis);
  }

  async hit(key: string): Promise<Verdict> {
    const [count, ttl] = await this.redis.windowHit(`${this.namespace}:${key}`, this.windowMs);
    return verdictOf(count, this.limit, Date.now() + ttl);
  }

  async peek(key: string): Promise<Verdict> {
    const [count, ttl] = await this.redis.windowPeek(`${this.namespace}:${key}`);
    return verdictOf(count, this.limit, Date.now() + Math.max(0, ttl === -2 ? this.windowMs : ttl));
  }
}
