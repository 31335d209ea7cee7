import type { Logger } from '../config/logger.ts';
import { readyRedis, shownRedis } from '../lib/redis.ts';
import type { StoreOptions } from '../lib/stores.ts';
import { LogFileOverlayStore } from './file-store.ts';
import { RedisOverlayStore } from './redis-store.ts';
import type { OverlayStore } from './store.ts';

/**
 * The catalog overlay beside the accounts: `file` for the file store, the accounts' Redis
 * otherwise. Rejects with a message naming the file, or the Redis, that cannot be used.
 *
 * @example
 * const overlay = await openOverlay({ kind: 'file', file: 'var/accounts.json' }, 'var/catalog-overlay.json', log);
 */
export async function openOverlay(store: StoreOptions, file: string, log: Logger): Promise<OverlayStore> {
  if (store.kind === 'file') return LogFileOverlayStore.open(file, log.warn);
  const redis = await readyRedis(store, `redis ${shownRedis(store.url)} (catalog overlay)`, 'catalog writes', log.warn);
  return new RedisOverlayStore(redis, redis.duplicate({ enableOfflineQueue: true }));
}
