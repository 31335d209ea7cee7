import { randomUUID } from 'node:crypto';
import { HttpError } from '../lib/http-error.ts';
import { memo } from '../lib/memo.ts';
import type { Account, Caller } from './account.ts';
import type { PasswordHasher } from './password-hasher.ts';
import { checkCredentialsBody, checkRegisterBody, type CredentialsBody, type RegisterBody } from './schemas.ts';
import { AccountsUnavailable, type AccountStore, type TakenField } from './store.ts';
import { TokenRejected, type IssuedToken, type Tokens } from './tokens.ts';
import { capitalize } from '../lib/text.ts';
import { withArticle } from '../lib/text.ts';

/** `register`'s answer. */
export type Registered = Pick<Account, 'username' | 'email' | 'role' | 'created_at' | 'updated_at'> & IssuedToken;

/** `authenticate`'s answer: the same fields as `register`'s. */
export type Authenticated = Registered;

const INVALID_CREDENTIALS = () => new HttpError(401, 'Invalid credentials', { 'WWW-Authenticate': 'Bearer' });

/**
 * A 401 for a bearer token that does not identify a current account: one per message, as a flood of them asks again and
 * again.
 */
const invalidToken = memo(
  (message) => new HttpError(401, message, { 'WWW-Authenticate': 'Bearer error="invalid_token"' }),
  { entries: 8 },
);

/** The caller an account is, one object per account (a token's every request names the same). */
const callers = new WeakMap<Account, Caller>();
function callerOf(account: Account): Caller {
  let caller = callers.get(account);
  if (!caller) callers.set(account, (caller = { uuid: account.uuid, username: account.username, role: account.role }));
  return caller;
}

function checked<T>(result: { body: T } | { problems: string[] }): T {
  if ('problems' in result) throw new HttpError(400, `Invalid request body: ${result.problems.join('; ')}`);
  return result.body;
}

/**
 * A registration body, checked: every broken rule in one 400.
 *
 * @example
 * readRegisterBody({ username: 'al' }); // throws HttpError 400 'Invalid request body: first_name is required; ...'
 */
export function readRegisterBody(input: unknown): RegisterBody {
  return checked(checkRegisterBody(input));
}

function takenMessage(taken: TakenField[], body: RegisterBody): string {
  const named = taken.map((field) => `${field} '${body[field]}'`).join(' and ');
  return `${capitalize(named)} ${taken.length > 1 ? 'are' : 'is'} already registered`;
}

/**
 * Creates an account from a checked registration body: the rules shared by
 * `POST /api/v1/auth/register` and `npm run accounts -- create`. Throws HttpError 409 when
 * the username or email is taken.
 *
 * @example
 * await createAccount(store, readRegisterBody({ first_name: 'Ana', last_name: 'Lima', username: 'ana',
 *   email: 'ana@example.org', password: 'a long secret', role: 'ADMIN' }), hasher);
 */
export async function createAccount(store: AccountStore, body: RegisterBody, hasher: PasswordHasher): Promise<Account> {
  // Checked before hashing so a duplicate costs no scrypt run; the store checks again atomically.
  const taken = [
    (await store.find({ username: body.username })) && 'username',
    (await store.find({ email: body.email })) && 'email',
  ].filter(Boolean) as TakenField[];
  if (taken.length) throw new HttpError(409, takenMessage(taken, body));
  const now = new Date().toISOString();
  const account: Account = {
    uuid: randomUUID(),
    username: body.username,
    email: body.email,
    first_name: body.first_name,
    last_name: body.last_name,
    role: body.role ?? 'BASIC',
    password_hash: await hasher.hash(body.password),
    created_at: now,
    updated_at: now,
  };
  const result = await store.create(account);
  if ('taken' in result) throw new HttpError(409, takenMessage(result.taken, body));
  return result.created;
}

/**
 * Registration, sign-in, deletion and token checks over an AccountStore. Every failure is an
 * HttpError in the service's one error shape.
 *
 * @example
 * const accounts = new AccountService(store, new Tokens(key, 3600), hasher);
 * await accounts.authenticate({ username: 'ana', password: 'a long secret' });
 */
export class AccountService {
  constructor(
    readonly store: AccountStore,
    private readonly tokens: Tokens,
    private readonly hasher: PasswordHasher,
  ) {}

  /** Stops the store's background work. */
  close(): void {
    this.store.close();
  }

  /** A BASIC account for anyone; another role only for an ADMIN `caller`. */
  async register(input: unknown, caller: Caller | undefined): Promise<Registered> {
    const body = readRegisterBody(input);
    const role = body.role ?? 'BASIC';
    if (role !== 'BASIC' && !caller)
      throw new HttpError(401, `Registering ${withArticle(role)} account needs an ADMIN's bearer token`, {
        'WWW-Authenticate': 'Bearer',
      });
    await this.store.refresh();
    if (role !== 'BASIC') {
      // The caller's role as stored at this moment, even if an operator changed it a moment ago.
      const current = await this.store.find({ uuid: caller!.uuid });
      if (!current) throw invalidToken("Bearer token's account no longer exists");
      if (current.role !== 'ADMIN')
        throw new HttpError(
          403,
          `Registering ${withArticle(role)} account needs an ADMIN's bearer token; this token is ` +
            `${withArticle(current.role)}'s`,
        );
    }
    const account = await createAccount(this.store, body, this.hasher);
    const { username, email, created_at, updated_at } = account;
    return { username, email, role: account.role, ...(await this.tokens.issue(account)), created_at, updated_at };
  }

  /** A fresh token for the account the credentials name. */
  async authenticate(input: unknown): Promise<Authenticated> {
    const account = await this.#checkCredentials(checked(checkCredentialsBody(input)));
    const { username, email, role, created_at, updated_at } = account;
    return { username, email, role, ...(await this.tokens.issue(account)), created_at, updated_at };
  }

  /** Deletes the account the credentials name; resolves once it is gone from the store. */
  async remove(input: unknown): Promise<void> {
    const account = await this.#checkCredentials(checked(checkCredentialsBody(input)));
    // A concurrent delete of the same account may have won; the account is gone either way.
    await this.store.delete(account.uuid);
  }

  /**
   * What `identify` would answer, when the token was verified before and its account is in
   * memory: the caller, or the 401; undefined when only `identify` can tell. Spares the
   * common case (a client sending its token again) every promise.
   */
  recallCaller(token: string): Caller | HttpError | undefined {
    const claimed = this.tokens.recall(token);
    if (claimed instanceof TokenRejected) return invalidToken(claimed.message);
    const recalled = claimed && this.store.recall(claimed.uuid);
    if (!recalled) return undefined;
    if (!recalled.account) return invalidToken("Bearer token's account no longer exists");
    return callerOf(recalled.account);
  }

  /**
   * The caller a bearer token identifies, with the role stored now; 401 invalid_token
   * otherwise. When the store cannot answer (Redis away), the token's own claims stand in, so
   * reads keep being served.
   */
  async identify(token: string): Promise<Caller> {
    const recalled = this.recallCaller(token);
    if (recalled instanceof HttpError) throw recalled;
    if (recalled) return recalled;
    let claimed: Caller;
    try {
      claimed = await this.tokens.verify(token);
    } catch (error) {
      if (error instanceof TokenRejected) throw invalidToken(error.message);
      throw error;
    }
    let account: Account | undefined;
    try {
      account = await this.store.find({ uuid: claimed.uuid });
    } catch (error) {
      if (error instanceof AccountsUnavailable) return claimed;
      throw error;
    }
    if (!account) throw invalidToken("Bearer token's account no longer exists");
    return callerOf(account);
  }

  /**
   * The account, or the same 401 for every kind of mismatch. Every attempt costs at least
   * one hash at the current cost: an unknown username's password is hashed anyway (a fresh
   * hash costs what checking one does), and an account hashed at an older cost is also
   * hashed anew, at the same time as its check (kept when the password is right), so timing
   * tells neither which usernames exist nor which are old.
   */
  async #checkCredentials({ username, email, password }: CredentialsBody): Promise<Account> {
    await this.store.refresh();
    const account = await this.store.find({ username });
    if (!account) {
      await this.hasher.hash(password);
      throw INVALID_CREDENTIALS();
    }
    const stored = account.password_hash;
    const [matches, rehashed] = await Promise.all([
      this.hasher.verify(password, stored),
      this.hasher.isCurrent(stored) ? undefined : this.hasher.hash(password),
    ]);
    const emailMatches = email === undefined || email.toLowerCase() === account.email.toLowerCase();
    if (!matches || !emailMatches) throw INVALID_CREDENTIALS();
    if (rehashed) return (await this.store.update(account.uuid, { password_hash: rehashed })) ?? account;
    return account;
  }
}
