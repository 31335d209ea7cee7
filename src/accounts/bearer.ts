import type { Middleware } from 'koa';
import { HttpError } from '../http/errors.ts';
import type { Caller } from './account.ts';
import type { AccountService } from './service.ts';

/**
 * What the bearer middleware leaves on `ctx.state`: the caller, or nothing for anonymous requests.
 *
 * @example
 * const key = (ctx.state as AuthState).account?.uuid ?? ctx.ip; // e.g. a rate-limit key
 */
export interface AuthState {
  account?: Caller;
}

const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i;

/**
 * Runs on every request. No `Authorization` header: anonymous. A valid bearer token:
 * `ctx.state.account = { uuid, username, role }` (role as stored now). Anything else, on any
 * method: 401 with `WWW-Authenticate: Bearer error="invalid_token"`, so a client holding a
 * broken token finds out instead of being served as anonymous. Later middleware (rate
 * limits) keys on `ctx.state.account`.
 *
 * @example
 * app.use(errorHandler(log));
 * app.use(bearerAuth(accounts));
 */
export function bearerAuth(accounts: AccountService): Middleware<AuthState> {
  return async (ctx, next) => {
    const header = ctx.get('Authorization');
    if (header) {
      const token = BEARER.exec(header)?.[1];
      if (!token) throw new HttpError(401, "Authorization header must be 'Bearer <token>'", { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
      ctx.state.account = await accounts.identify(token);
    }
    await next();
  };
}
