import type { Context, Middleware } from 'koa';
import { HttpError } from '../lib/http-error.ts';
import type { Caller } from '../accounts/account.ts';
import type { AccountService } from '../accounts/service.ts';

/** What the bearer middleware leaves on `ctx.state`: the caller, or nothing for anonymous requests. */
export interface AuthState {
  account?: Caller;
  /** The checked `Authorization` header, kept so the rate limits and this check verify it once. */
  bearer?: Promise<Bearer>;
}

/** A request's bearer token, checked: its caller, the 401 it deserves, or neither (no header). */
export type Bearer = { caller?: Caller; rejected?: HttpError };

const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i;

/**
 * Checks an `Authorization` header: no header is anonymous, a valid bearer token names its
 * caller, anything else is the 401 it deserves. Shared by Koa and the fast path; `connection`
 * (the request's socket) lets a header sent again on it skip the parsing.
 *
 * @example
 * await readBearer(req.headers.authorization, accounts); // { caller: { uuid, username, role } }
 */
export async function readBearer(
  header: string | undefined,
  accounts: AccountService,
  connection?: object,
): Promise<Bearer> {
  const now = recallBearer(header, accounts, connection);
  if (now) return now;
  const token = tokenIn(header!, connection)!;
  try {
    return { caller: await accounts.identify(token) };
  } catch (error) {
    if (error instanceof HttpError) return { rejected: error };
    throw error;
  }
}

/**
 * The token last read from each connection's `Authorization` header. A keep-alive client sends
 * the same header with every request: comparing it with the last one costs less than matching
 * the pattern and hashing a fresh copy of a 400-character token (about 1 µs a request), and
 * the token kept has its hash computed already for the lookups that follow.
 */
const lastTokens = new WeakMap<object, { header: string; token: string }>();

function tokenIn(header: string, connection: object | undefined): string | undefined {
  const last = connection && lastTokens.get(connection);
  if (last?.header === header) return last.token;
  const token = BEARER.exec(header)?.[1];
  if (token && connection) lastTokens.set(connection, { header, token });
  return token;
}

/** Bearers of the tokens clients send again, one object per caller: the common case allocates nothing. */
const bearers = new WeakMap<Caller, Bearer>();

/**
 * What `readBearer` would answer, without waiting, when it can tell now: no header, a
 * malformed one, or a token verified before whose account is in memory; undefined when only
 * `readBearer` can tell.
 *
 * @example
 * recallBearer(req.headers.authorization, accounts, req.socket) ??
 *   (await readBearer(req.headers.authorization, accounts, req.socket));
 */
export function recallBearer(
  header: string | undefined,
  accounts: AccountService,
  connection?: object,
): Bearer | undefined {
  if (!header) return {};
  const token = tokenIn(header, connection);
  if (!token)
    return {
      rejected: new HttpError(401, "Authorization header must be 'Bearer <token>'", {
        'WWW-Authenticate': 'Bearer error="invalid_token"',
      }),
    };
  const recalled = accounts.recallCaller(token);
  if (recalled === undefined) return undefined;
  if (recalled instanceof HttpError) return { rejected: recalled };
  let bearer = bearers.get(recalled);
  if (!bearer) bearers.set(recalled, (bearer = { caller: recalled }));
  return bearer;
}

/**
 * The request's bearer token checked once, however many middleware ask (the rate limits
 * key on it before the bearer middleware refuses a bad one).
 *
 * @example
 * const { caller } = await bearerOf(ctx, accounts); // undefined caller: anonymous or refused
 */
export function bearerOf(ctx: Context, accounts: AccountService): Promise<Bearer> {
  const state = ctx.state as AuthState;
  state.bearer ??= readBearer(ctx.get('Authorization'), accounts, ctx.req.socket);
  return state.bearer;
}

/**
 * Runs on every request. No `Authorization` header: anonymous. A valid bearer token:
 * `ctx.state.account = { uuid, username, role }` (role as stored now). Anything else, on any
 * method: 401 with `WWW-Authenticate: Bearer error="invalid_token"`, so a client holding a
 * broken token finds out instead of being served as anonymous.
 *
 * @example
 * app.use(errorHandler(log));
 * app.use(bearerAuth(accounts));
 */
export function bearerAuth(accounts: AccountService): Middleware<AuthState> {
  return async (ctx, next) => {
    const { caller, rejected } = await bearerOf(ctx as unknown as Context, accounts);
    if (rejected) throw rejected;
    if (caller) ctx.state.account = caller;
    await next();
  };
}
