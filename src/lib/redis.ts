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
  await new Promise<void>((resolve, reject) => {
    if (redis.status === 'ready') return resolve();
    const timer = setTimeout(() => reject(new Error(`${where} did not answer within 5 s`)), 5000);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return redis;
}
