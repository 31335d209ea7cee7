import type { Logger } from '../config/logger.ts';
import { HashSlots } from './hash-slots.ts';
import { JsonFileAccountStore } from './json-file-store.ts';
import { jwtSecret } from './jwt-secret.ts';
import { PasswordHasher } from './password-hasher.ts';
import { scryptParams } from './passwords.ts';
import { AccountService } from './service.ts';
import { Tokens } from './tokens.ts';

/** The scrypt cost this project treats as the floor for real use (OWASP, 2^17). */
const RECOMMENDED_N = 2 ** 17;

/** What accounts need: where they live, how tokens are signed, how passwords are hashed. */
export interface AccountOptions {
  file: string;
  /** Unset: a generated key kept in `jwt-secret` beside `file`. */
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

/**
 * Everything accounts need at boot: the store, the JWT key and the service. Rejects with a
 * StoreFileError (message names the file) when the accounts or key file cannot be used.
 *
 * @example
 * const accounts = await openAccounts({ file: 'var/accounts.json', tokenTtlSeconds: 3600, scryptN: 2 ** 17,
 *   hashes: { concurrent: 2, queued: 64 } }, log);
 */
export async function openAccounts(options: AccountOptions, log: Logger): Promise<AccountService> {
  const store = await JsonFileAccountStore.open(options.file, log.warn);
  const secret = await jwtSecret(options.jwtSecret, options.file, log.warn);
  log.info(secret.origin);
  if (options.scryptN < RECOMMENDED_N) log.warn(`SCRYPT_N=${options.scryptN} is below ${RECOMMENDED_N}: fine for tests, too weak for real passwords`);
  return new AccountService(store, new Tokens(secret.key, options.tokenTtlSeconds), passwordHasher(options));
}
