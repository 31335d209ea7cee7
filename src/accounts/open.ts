import type { Redis } from 'ioredis';
import type { Logger } from '../config/logger.ts';
import { connectRedis, shownRedis } from '../lib/redis.ts';
import { HashSlots } from './hash-slots.ts';
import { JsonFileAccountStore } from './json-file-store.ts';
import { LogFileOverlayStore } from './overlay-file-store.ts';
import { RedisOverlayStore } from './overlay-redis-store.ts';
import type { OverlayStore } from './overlay-store.ts';
import { jwtSecret } from './jwt-secret.ts';
import { PasswordHasher } from './password-hasher.ts';
import { scryptParams } from './passwords.ts';
import { RedisAccountStore } from './redis-store.ts';
import { AccountService } from './service.ts';
import type { AccountStore } from './store.ts';
import { Tokens } from './tokens.ts';

/** The scrypt cost this project treats as the floor for real use (OWASP, 2^17). */
const RECOMMENDED_N = 2 ** 17;

/** Where accounts live: one JSON file for one instance, or a Redis every instance shares. */
export type StoreOptions = { kind: 'file'; file: string } | { kind: 'redis'; url: string; timeoutMs: number };

/** What accounts need: where they live, how tokens are signed, how passwords are hashed. */
export interface AccountOptions {
  store: StoreOptions;
  /** Unset (file store only): a generated key kept in `jwt-secret` beside the file. */
  jwtSecret?: string;
  tokenTtlSeconds: number;
  scryptN: number;
  hashes: { concurrent: number; queued: number };
}

/**
 * The password hasher these options describe, with its bounded slots.
 *
 * @example
 * const hasher = passwordHasher({ scryptN: 2 ** 17, hashes: { concurrent: 2, queued: 64 } });
 */
export function passwordHasher(options: Pick<AccountOptions, 'scryptN' | 'hashes'>): PasswordHasher {
  return new PasswordHasher(scryptParams(options.scryptN), new HashSlots(options.hashes));
}

/** Warns, in one line, when the Redis holding the accounts would lose them on a restart. */
async function checkPersistence(redis: Redis, where: string, log: Logger): Promise<void> {
  try {
    const [, appendonly] = (await redis.config('GET', 'appendonly')) as [string, string];
    const [, save] = (await redis.config('GET', 'save')) as [string, string];
    if (appendonly !== 'yes' && !save.trim()) {
      log.warn(`${where} keeps no AOF and no RDB snapshots: accounts would not survive a Redis restart (set appendonly yes)`);
    }
  } catch (error) {
    log.warn(`${where}: could not read its persistence settings (${(error as Error).message}); make sure it keeps an AOF`);
  }
}

/**
 * A Redis client for `what`, connected: the first connection is awaited so that a wrong
 * REDIS_URL shows at boot, not at the first request that needs it.
 */
async function readyRedis(options: { url: string; timeoutMs: number }, where: string, what: string, log: Logger): Promise<Redis> {
  const redis = await connectRedis(options.url, {
    timeoutMs: options.timeoutMs,
    onDown: (error) => log.warn(`${where} unreachable (${error.message}): reads go on, ${what} answer 503 until it returns`),
    onBack: () => log.warn(`${where} is back: ${what} are served again`),
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

/**
 * The accounts store these options name. Rejects with a message naming the file, or the
 * Redis, that cannot be used.
 *
 * @example
 * const store = await openStore({ kind: 'file', file: 'var/accounts.json' }, log);
 */
export async function openStore(options: StoreOptions, log: Logger): Promise<AccountStore> {
  if (options.kind === 'file') return JsonFileAccountStore.open(options.file, log.warn);
  const where = `redis ${shownRedis(options.url)} (accounts)`;
  const redis = await readyRedis(options, where, 'account requests', log);
  await checkPersistence(redis, where, log);
  log.info(`accounts: shared through ${where}`);
  return RedisAccountStore.open(redis);
}

/**
 * The catalog overlay beside the accounts: `file` for the file store, the accounts' Redis
 * otherwise. Rejects with a message naming the file, or the Redis, that cannot be used.
 *
 * @example
 * const overlay = await openOverlay({ kind: 'file', file: 'var/accounts.json' }, 'var/catalog-overlay.json', log);
 */
export async function openOverlay(store: StoreOptions, file: string, log: Logger): Promise<OverlayStore> {
  if (store.kind === 'file') return LogFileOverlayStore.open(file, log.warn);
  const redis = await readyRedis(store, `redis ${shownRedis(store.url)} (catalog overlay)`, 'catalog writes', log);
  return new RedisOverlayStore(redis, redis.duplicate({ enableOfflineQueue: true }));
}

/**
 * Everything accounts need at boot: the store, the JWT key and the service. Rejects with a
 * message naming the file or Redis that cannot be used.
 *
 * @example
 * const accounts = await openAccounts({ store: { kind: 'file', file: 'var/accounts.json' }, tokenTtlSeconds: 3600,
 *   scryptN: 2 ** 17, hashes: { concurrent: 2, queued: 64 } }, log);
 */
export async function openAccounts(options: AccountOptions, log: Logger): Promise<AccountService> {
  const store = await openStore(options.store, log);
  const secret = await jwtSecret(options.jwtSecret, options.store.kind === 'file' ? options.store.file : undefined, log.warn);
  log.info(secret.origin);
  if (options.scryptN < RECOMMENDED_N) log.warn(`SCRYPT_N=${options.scryptN} is below ${RECOMMENDED_N}: fine for tests, too weak for real passwords`);
  return new AccountService(store, new Tokens(secret.key, options.tokenTtlSeconds), passwordHasher(options));
}
