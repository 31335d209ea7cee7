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
