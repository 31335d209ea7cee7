import type { Context, Middleware } from 'koa';
import type { AccountService } from '../../accounts/service.ts';
import type { AuthState } from '../bearer.ts';
import { jsonBody } from '../json-body.ts';
import { countsIn, type RouteTable } from '../routing.ts';

/** Token answers are for the client alone: no cache may keep them. */
function sendPrivate(ctx: Context, status: number, body: object): void {
  ctx.status = status;
  // Exactly this type, as every other answer: clients compare it as a string.
  ctx.set('Content-Type', 'application/json');
  ctx.set('Cache-Control', 'no-store');
  ctx.body = JSON.stringify(body);
}

/**
 * `POST /api/v1/auth/register` (201), `/authenticate` (200) and `/delete` (204), JSON bodies,
 * counted in the auth endpoints' budget. `guard` runs before the credentials of
 * `/authenticate` and `/delete` are checked (the per-username failure budget).
 *
 * @example
 * accountRoutes(router, accounts, signInGuard(limits));
 */
export function accountRoutes(
  router: RouteTable,
  accounts: AccountService,
  guard: Middleware = (_ctx, next) => next(),
): void {
  const auth = countsIn('auth');
  router.post('/api/v1/auth/register', auth, jsonBody(), async (ctx) => {
    sendPrivate(ctx, 201, await accounts.register(ctx.request.body, (ctx.state as AuthState).account));
  });
  router.post('/api/v1/auth/authenticate', auth, jsonBody(), guard, async (ctx) => {
    sendPrivate(ctx, 200, await accounts.authenticate(ctx.request.body));
  });
  router.post('/api/v1/auth/delete', auth, jsonBody(), guard, async (ctx) => {
    await accounts.remove(ctx.request.body);
    ctx.status = 204;
  });
}
