import { HttpError } from '../lib/http-error.ts';
import type { Account } from './account.ts';

/** How an account is looked up; usernames and emails match case-insensitively. */
export type AccountKey = { uuid: string } | { username: string } | { email: string };

/** What may change in an account after it is created. */
export type AccountChanges = Partial<Pick<Account, 'role' | 'password_hash'>>;

/** Which unique fields of a new account are already in use. */
export type TakenField = 'username' | 'email';

/**
 * Where accounts live. Every method resolves only after the change is durable, so a caller
 * may answer its client as soon as it resolves. Implementations: `JsonFileAccountStore`
 * (one JSON file, one instance) and `RedisAccountStore` (shared by every instance). A store
 * that cannot answer now rejects with `AccountsUnavailable`.
 */
export interface AccountStore {
  /** Adds `account` unless its username or email is taken (checked atomically with the insert). */
  create(account: Account): Promise<{ created: Account } | { taken: TakenField[] }>;
  find(key: AccountKey): Promise<Account | undefined>;
  /**
   * The account by uuid when this process knows it now (as `find` would answer), without
   * waiting: `{ account }` (undefined when it does not exist), or undefined when only `find` can tell.
   */
  recall(uuid: string): { account: Account | undefined } | undefined;
  /** Removes the account; false when it did not exist. */
  delete(uuid: string): Promise<boolean>;
  /**
   * Changes the account's role or password hash (not its unique fields); the updated account, or undefined when it does
   * not exist.
   */
  update(uuid: string, changes: AccountChanges): Promise<Account | undefined>;
  /** Every account, oldest first. */
  list(): Promise<Account[]>;
  /**
   * Brings this process's view up to date with changes other processes made. Lookups may
   * answer from a view up to a second old; the credential checks call this first.
   */
  refresh(): Promise<void>;
  /** Stops background work (watching for changes); the store is not used afterwards. */
  close(): void;
}

/**
 * The accounts store said it cannot answer now (Redis unreachable or slow): a 503 with
 * `Retry-After` for account requests, never a 500; reads are served without it.
 */
export class AccountsUnavailable extends HttpError {
  constructor(cause: Error) {
    super(503, `The accounts store is unreachable (${cause.message}); retry in 5 s`, { 'Retry-After': '5' });
  }
}

/**
 * A change the store could not make durable (a full disk, a read-only file system, a Redis
 * that cannot persist): nothing was changed, and the same request may succeed later.
 *
 * @example
 * throw new AccountsNotSaved('var/accounts.json', 'ENOSPC');
 */
export class AccountsNotSaved extends HttpError {
  constructor(where: string, reason: string) {
    super(503, `The accounts could not be saved (${where}: ${reason}); nothing was changed, retry in 30 s`, {
      'Retry-After': '30',
    });
  }
}
