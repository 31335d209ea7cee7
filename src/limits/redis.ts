import type { Redis } from 'ioredis';
import type { Logger } from '../config/logger.ts';

/** `redis://user:secret@host:6379/0` → `host:6379`: what logs may show of a Redis URL. */
function shown(url: string): string {
  const { host } = new URL(url);
  return host;
}

/**
 * A Redis client for shared rate limits that never makes a request wait on Redis: commands
 * fail at once while it is unreachable (no offline queue) and after `timeoutMs` when it is
 * slow, and the limits then let requests through. It reconnects by itself; the outage and
 * the recovery are each logged once.
 *
 * @example
 * const redis = await connectRedis('redis://127.0.0.1:6379', 5, log);
 */
export async function connectRedis(url: string, timeoutMs: number, log: Logger): Promise<Redis> {
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
    log.warn(`redis ${shown(url)} unreachable (${error.message}): requests are served without shared rate limits until it returns`);
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    log.warn(`redis ${shown(url)} is back: rate limits are shared again`);
  });
  return redis;
}
