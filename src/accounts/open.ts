import type { Config } from '../config/env.ts';
import type { Logger } from '../config/logger.ts';
import { JsonFileAccountStore } from './json-file-store.ts';
import { jwtSecret } from './jwt-secret.ts';
import { scryptParams } from './passwords.ts';
import { AccountService } from './service.ts';
import { Tokens } from './tokens.ts';

/** The scrypt cost this project treats as the floor for real use (OWASP, 2^17). */
const RECOMMENDED_N = 2 ** 17;

/**
 * Everything accounts need at boot: the store at `ACCOUNTS_FILE`, the JWT key and the
 * service. Rejects with a StoreFileError (message names the file) when the accounts or key
 * file cannot be used.
 *
 * @example
 * const accounts = await openAccounts(config, log);
 * createServer({ served, config, log, accounts });
 */
export async function openAccounts(config: Config, log: Logger): Promise<AccountService> {
  const store = await JsonFileAccountStore.open(config.ACCOUNTS_FILE, log.warn);
  const secret = await jwtSecret(config.JWT_SECRET, config.ACCOUNTS_FILE);
  log.info(secret.origin);
  if (config.SCRYPT_N < RECOMMENDED_N) log.warn(`SCRYPT_N=${config.SCRYPT_N} is below ${RECOMMENDED_N}: fine for tests, too weak for real passwords`);
  return AccountService.create(store, new Tokens(secret.key, config.TOKEN_TTL), scryptParams(config.SCRYPT_N));
}
