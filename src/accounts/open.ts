import type { Redis } from 'ioredis';
import type { Logger } from '../config/logger.ts';
import { readyRedis, shownRedis } from '../lib/redis.ts';
import type { StoreOptions } from '../lib/stores.ts';
import { HashSlots } from './hash-slots.ts';
import { JsonFileAccountStore } from './json-file-store.ts';
import { jwtSecret } from './jwt-secret.ts';
import { PasswordHasher } from './password-hasher.ts';
import { scryptParams } from './passwords.ts';
import { RedisAccountStore } from './redis-store.ts';
import { AccountService } from './service.ts';
import type { AccountStore } from './store.ts';
import { Tokens } from './tokens.ts';

/** The scrypt cost this project treats as the floor for real use (OWASP, 2^17). */
const RECOMMENDED_N = 2 ** 17;

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
      log.warn(
        `${where} keeps no AOF and no RDB snapshots: accounts would not survive a Redis restart (set appendonly yes)`,
      );
    }
  } catch (error) {
    log.warn(
      `${where}: could not read its persistence settings (${(error as Error).message}); make sure it keeps an AOF`,
    );
  }
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
  const redis = await readyRedis(options, where, 'account requests', log.warn);
  await checkPersistence(redis, where, log);
  log.info(`accounts: shared through ${where}`);
  return RedisAccountStore.open(redis);
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
  const secret = await jwtSecret(
    options.jwtSecret,
    options.store.kind === 'file' ? options.store.file : undefined,
    log.warn,
  );
  log.info(secret.origin);
  if (options.scryptN < RECOMMENDED_N)
    log.warn(`SCRYPT_N=${options.scryptN} is below ${RECOMMENDED_N}: fine for tests, too weak for real passwords`);
  return new AccountService(store, new Tokens(secret.key, options.tokenTtlSeconds), passwordHasher(options));
}
