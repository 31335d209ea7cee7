import type { Context, Middleware } from 'koa';
import type { Caller } from '../../accounts/account.ts';
import { HttpError } from '../../lib/http-error.ts';
import type { CatalogWriter } from '../catalog-writer.ts';
import type { Sandboxes } from '../../served/sandboxes.ts';
import type { AuthState } from '../bearer.ts';
import type { RouteTable } from '../routing.ts';
import type { SentState } from '../send.ts';
import type { ViewState } from '../caller-view.ts';

/**
 * Admission stage of classroom mode: a request of an account with a sandbox carries its view
 * (`ViewState`), so every read (and the write routes' lookups) sees the catalog with its changes;
 * any other method than GET and HEAD first reads what other instances kept since.
 * Such an answer is that account's alone: `private`, so no shared cache keeps it, and the fast
 * path replays it to that account only (`ownKey`).
 *
 * @example
 * new RouteTable([..., ['bearerAuth', bearerAuth(accounts)], ['sandbox', sandboxView(writer)]]);
 */
export function sandboxView(writer: CatalogWriter): Middleware<AuthState & ViewState> {
  const sandboxes = writer.sandboxes!;
  return async (ctx, next) => {
    const caller = ctx.state.account;
    const view = writer.viewOf(caller);
    if (!caller || !view) return next();
    // A write is looked up and staged on the caller's writes through every instance until now.
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') await sandboxes.refresh();
    ctx.state.view = view;
    await next();
    if ((ctx.state as SentState).sent && sandboxes.readsOwn(caller)) ctx.set('Cache-Control', 'private, no-cache');
  };
}

/** The signed-in caller, or the 401 of a sandbox request without a token. */
function callerOf(ctx: Context): Caller {
  const caller = (ctx.state as AuthState).account;
  if (!caller)
    throw new HttpError(401, `${ctx.method} ${ctx.path} needs a token (Authorization: Bearer <token>)`, {
      'WWW-Authenticate': 'Bearer',
    });
  return caller;
}

/** The ADMIN signed in, or the 401 or 403 of anyone else asking for what only an ADMIN does (`what`). */
export function adminOf(ctx: Context, what: string): Caller {
  const caller = callerOf(ctx);
  if (caller.role !== 'ADMIN')
    throw new HttpError(403, `Account '${caller.username}' is ${caller.role}: only an ADMIN ${what}`);
  return caller;
}

/** The minutes of class activity `GET /api/v1/sandboxes` counts writes in (the board's chart). */
const BOARD_MINUTES = 30;

/**
 * `GET /api/v1/sandbox` (the caller's changes, as `npm run catalog -- changes` lists them),
 * `DELETE /api/v1/sandbox` (resets it), `GET /api/v1/sandboxes` (an ADMIN sees each student's
 * writes, last write and last reset, and the class's writes per minute: the teacher's board) and
 * `DELETE /api/v1/sandboxes` (an ADMIN resets every one).
 *
 * @example
 * sandboxRoutes(routes, sandboxes, 200);
 */
export function sandboxRoutes(router: RouteTable, sandboxes: Sandboxes, limit: number): void {
  router.get('/api/v1/sandbox', (ctx) => {
    const caller = callerOf(ctx);
    const { writes, lines } = sandboxes.changes(caller.uuid);
    ctx.set({ 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    ctx.body = JSON.stringify({ username: caller.username, writes, limit, changes: lines });
  });
  router.delete('/api/v1/sandbox', async (ctx) => {
    await sandboxes.reset(callerOf(ctx).uuid);
    ctx.status = 204;
  });
  router.get('/api/v1/sandboxes', (ctx) => {
    adminOf(ctx, 'sees the class');
    ctx.set({ 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    ctx.body = JSON.stringify({ students: sandboxes.students(), per_minute: sandboxes.perMinute(BOARD_MINUTES) });
  });
  router.delete('/api/v1/sandboxes', async (ctx) => {
    adminOf(ctx, 'resets every sandbox');
    await sandboxes.reset();
    ctx.status = 204;
  });
}
