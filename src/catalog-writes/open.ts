import type { Logger } from '../config/logger.ts';
import { readyRedis, shownRedis } from '../lib/redis.ts';
import type { StoreOptions } from '../lib/stores.ts';
import { LogFileOverlayStore } from './file-store.ts';
import { OVERLAY_LOG, RedisOverlayStore, SANDBOX_LOG, type RedisLog } from './redis-store.ts';
import type { OverlayStore, SandboxStore } from './store.ts';

/**
 * The catalog overlay beside the accounts: `file` for the file store, the accounts' Redis
 * otherwise. Rejects with a message naming the file, or the Redis, that cannot be used.
 *
 * @example
 * const overlay = await openOverlay({ kind: 'file', file: 'var/accounts.json' }, 'var/catalog-overlay.json', log);
 */
export async function openOverlay(store: StoreOptions, file: string, log: Logger): Promise<OverlayStore> {
  if (store.kind === 'file') return LogFileOverlayStore.open(file, log.warn);
  return openRedisLog(store, OVERLAY_LOG, log);
}

/**
 * The classroom sandboxes beside the accounts: `file` for the file store, the accounts' Redis
 * otherwise (keys of their own, apart from the overlay's). Rejects as `openOverlay` does.
 *
 * @example
 * const sandboxes = await openSandboxStore({ kind: 'redis', url, timeoutMs: 500 }, 'var/sandboxes.json', log);
 */
export async function openSandboxStore(store: StoreOptions, file: string, log: Logger): Promise<SandboxStore> {
  if (store.kind === 'file') return LogFileOverlayStore.open(file, log.warn);
  return openRedisLog(store, SANDBOX_LOG, log);
}

/** A log of writes in the accounts' Redis, with a connection of its own for the announcements. */
async function openRedisLog(
  store: Extract<StoreOptions, { kind: 'redis' }>,
  which: RedisLog,
  log: Logger,
): Promise<RedisOverlayStore> {
  const redis = await readyRedis(store, `redis ${shownRedis(store.url)} (${which.name})`, which.writes, log.warn);
  return new RedisOverlayStore(redis, redis.duplicate({ enableOfflineQueue: true }), which);
}
