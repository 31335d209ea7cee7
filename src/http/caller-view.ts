import type { Context } from 'koa';
import type { Served, ServedCatalog, View } from '../served/served-catalog.ts';

/** Koa state of a request whose caller sees a view of its own (classroom mode: `sandboxView`). */
export interface ViewState {
  view?: View;
}

/** The catalog, cache and pictures the request's caller reads: its view's, else the shared ones. */
export function servedTo(ctx: Context, deps: { served: ServedCatalog }): Served {
  return deps.served.seenBy((ctx.state as ViewState).view);
}
