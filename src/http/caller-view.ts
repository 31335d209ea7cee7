import type { Context } from 'koa';
import type { Served, ServedCatalog, View } from '../served/served-catalog.ts';

/** Koa state of a request whose caller sees a view of its own (classroom mode: `sandboxView`). */
export interface ViewState {
  view?: View;
}

/** The header naming the data version an answer was read from (the change feed's cursor then). */
export const VERSION_HEADER = 'Catalog-Version';

/**
 * The catalog, cache and pictures the request's caller reads: its view's, else the shared
 * ones. Its data version is set as the answer's `Catalog-Version` (kept by an error answer too).
 */
export function servedTo(ctx: Context, deps: { served: ServedCatalog }): Served {
  const served = deps.served.seenBy((ctx.state as ViewState).view);
  ctx.set(VERSION_HEADER, served.version);
  return served;
}
