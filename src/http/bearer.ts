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
 * caller, anything else is the 401 it deserves. Shared by Koa and the fast path.
 *
 * @example
 * await readBearer(req.headers.authorization, accounts); // { caller: { uuid, username, role } }
 */
export async function readBearer(header: string | undefined, accounts: AccountService): Promise<Bearer> {
  if (!header) return {};
  const token = BEARER.exec(header)?.[1];
  if (!token) return { rejected: new HttpError(401, "Authorization header must be 'Bearer <token>'", { 'WWW-Authenticate': 'Bearer error="invalid_token"' }) };
  try {
    return { caller: await accounts.identify(token) };
  } catch (error) {
    if (error instanceof HttpError) return { rejected: error };
    throw error;
  }
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
  state.bearer ??= readBearer(ctx.get('Authorization'), accounts);
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
