import type { Router } from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { AuthState } from '../bearer.ts';
import { jsonBody } from '../json-body.ts';
import type { AccountService } from '../../accounts/service.ts';

/** Token answers are for the client alone: no cache may keep them. */
function sendPrivate(ctx: Context, status: number, body: object): void {
  ctx.status = status;
  ctx.body = body;
  ctx.set('Cache-Control', 'no-store');
}

/**
 * `POST /api/v1/auth/register` (201), `/authenticate` (200) and `/delete` (204), JSON bodies.
 * `guard` runs before the credentials of `/authenticate` and `/delete` are checked (the
 * per-username failure budget of the rate limits).
 *
 * @example
 * accountRoutes(router, accounts, limits.loginGuard()); // after app.use(bearerAuth(accounts))
 */
export function accountRoutes(router: Router, accounts: AccountService, guard: Middleware = (_ctx, next) => next()): void {
  router.post('/api/v1/auth/register', jsonBody(), async (ctx) => {
    sendPrivate(ctx, 201, await accounts.register(ctx.request.body, (ctx.state as AuthState).account));
  });
  router.post('/api/v1/auth/authenticate', jsonBody(), guard, async (ctx) => {
    sendPrivate(ctx, 200, await accounts.authenticate(ctx.request.body));
  });
  router.post('/api/v1/auth/delete', jsonBody(), guard, async (ctx) => {
    await accounts.remove(ctx.request.body);
    ctx.status = 204;
  });
}
