import { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { HeaderReader, ReadExchange, ReadRoute } from '../reads/types.ts';
import type { CachedResponse } from '../served/cached-response.ts';
import { servedTo } from './caller-view.ts';
import { requestOrigin } from './origin.ts';
import type { RouteDeps } from './routes/context.ts';
import type { RouteTable } from './routing.ts';
import { send } from './send.ts';
import { isSimulationParam } from './simulation.ts';

/** A Koa request's headers as the read helpers ask for them (`acceptedLanguage`). */
export function koaHeaders(ctx: Context): HeaderReader {
  return { header: (name) => ctx.get(name) || undefined, vary: (name) => ctx.vary(name) };
}

/** A Koa request as the read API's exchange: the caller's view, Koa's parsed query, `send` with its fast-path note. */
export function koaExchange(ctx: Context, deps: RouteDeps): ReadExchange<CachedResponse> {
  return {
    path: ctx.path,
    publicPath: ctx.path,
    querystring: ctx.querystring,
    query: ctx.query,
    params: (ctx.params as Record<string, string> | undefined) ?? {},
    served: servedTo(ctx, deps),
    ...koaHeaders(ctx),
    origin: () => requestOrigin(ctx, deps.publicUrl),
    ignores: (name) => isSimulationParam(ctx, name),
    send: (entry, cacheControl) => send(ctx, entry, cacheControl),
    stream: (chunks, headers, cacheControl) => {
      ctx.set({ ...headers, 'Cache-Control': cacheControl });
      // Bytes, not objects: each chunk is made when the socket has taken the last ones.
      ctx.body = Readable.from(chunks, { objectMode: false });
    },
  };
}

/** Registers read routes (see `readRoutes`) with the router, each answering through `koaExchange`. */
export function addReadRoutes(router: RouteTable, deps: RouteDeps, routes: readonly ReadRoute[]): void {
  for (const { path, handler } of routes) router.get(path, (ctx) => handler(koaExchange(ctx, deps)));
}
