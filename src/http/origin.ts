import { picturePrefix } from '../reads/locate.ts';
import type { Context } from 'koa';

/**
 * Where the service was reached, as the client sees it: `publicUrl` when configured, else the
 * request's scheme and host (behind a trusted proxy, Koa reads them from `X-Forwarded-Proto`
 * and `X-Forwarded-Host`). Koa's `ctx.origin` is the `Origin` request header, not this.
 *
 * Built from request headers, so the answer varies on each one read: caches, the fast path
 * among them (it keys a URL's answers on the headers in `Vary`), then never hand one client's
 * origin to another.
 *
 * @example
 * requestOrigin(ctx, undefined); // 'http://localhost:3000', with Vary: Host
 */
export function requestOrigin(ctx: Context, publicUrl: string | undefined): string {
  if (publicUrl) return publicUrl;
  ctx.vary(ctx.app.proxy ? ['Host', 'X-Forwarded-Host', 'X-Forwarded-Proto'] : ['Host']);
  return `${ctx.protocol}://${ctx.host}`;
}

/**
 * The origin a catalog answer puts before the paths of the pictures the catalog serves:
 * `picturePrefix` with `requestOrigin`.
 *
 * @example
 * pictureOrigin(ctx, undefined, served.shared.catalog); // 'http://localhost:3000', with Vary: Host
 */
export function pictureOrigin(
  ctx: Context,
  publicUrl: string | undefined,
  catalog: { namesPictures: boolean },
): string {
  return picturePrefix(catalog, () => requestOrigin(ctx, publicUrl));
}
