import type { Redis } from 'ioredis';

/** `redis://user:secret@host:6379/0` → `host:6379`: what logs may show of a Redis URL. */
export function shownRedis(url: string): string {
  return new URL(url).host;
}

/** How a feature's Redis client behaves, and what it says when Redis goes and comes back. */
export interface RedisOptions {
  /** Longest wait for one command before it fails. */
  timeoutMs: number;
  /** Called once when Redis becomes unreachable (until it is back). */
  onDown: (error: Error) => void;
  /** Called once when Redis is reachable again. */
  onBack: () => void;
}

/**
 * A Redis client that never makes a request wait on Redis: commands fail at once while it is
 * unreachable (no offline queue) and after `timeoutMs` when it is slow, and the caller decides
 * what that means (the limits let requests through; the accounts answer 503). It reconnects
 * by itself; the outage and the recovery are each reported once.
 *
 * @example
 * const redis = await connectRedis('redis://127.0.0.1:6379', { timeoutMs: 5, onDown, onBack });
 */
export async function connectRedis(url: string, { timeoutMs, onDown, onBack }: RedisOptions): Promise<Redis> {
  // Loaded only when Redis is configured: the client library is the largest the service has.
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
  });
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return;
    down = true;
    onDown(error);
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    onBack();
  });
  return redis;
}

/**
 * A Redis client for `what`, connected: the first connection is awaited so that a wrong
 * REDIS_URL shows at boot, not at the first request that needs it. Used by the accounts and
 * the catalog writes alike.
 *
 * @example
 * const redis = await readyRedis({ url, timeoutMs: 500 }, 'redis host:6379 (accounts)', 'account requests', log.warn);
 */
export async function readyRedis(
  options: { url: string; timeoutMs: number },
  where: string,
  what: string,
  warn: (line: string) => void,
): Promise<Redis> {
  const redis = await connectRedis(options.url, {
    timeoutMs: options.timeoutMs,
    onDown: (error) =>
      warn(`${where} unreachable (${error.message}): reads go on, ${what} answer 503 until it returns`),
    onBack: () => warn(`${where} is back: ${what} are served again`),
  });
  if (!(await whenReady(redis, READY_MS))) throw new Error(`${where} did not answer within ${READY_MS / 1000} s`);
  return redis;
}

/** How long a boot waits for a Redis it needs. */
const READY_MS = 5000;

/**
 * Whether `redis` is connected within `ms` (true at once when it is). A client made with
 * `connectRedis` fails its commands at once until then: a feature that goes on without Redis
 * (the limits) waits for this at boot, so that its first requests are not served as if
 * Redis were down.
 *
 * @example
 * if (!(await whenReady(redis, 5000))) log.warn('Redis is not reachable yet');
 */
export function whenReady(redis: Redis, ms: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
