import type { Context } from 'koa';
import type { FamilyStore } from '../../catalog/store.ts';
import { checkedUuid } from '../../catalog/href.ts';
import { HttpError } from '../../lib/http-error.ts';
import type { ServedCatalog } from '../../served/served-catalog.ts';
import { capitalize } from '../../lib/text.ts';

/** What the catalog routes need: the served catalog and how its answers are served. */
export interface RouteDeps {
  served: ServedCatalog;
  /** Seconds browsers and shared caches may keep a catalog answer. */
  cacheSeconds: number;
  /** Largest page a list answers with. */
  maxPageSize: number;
  /** The base URL `/api` reports; unset: the address each request used. */
  publicUrl?: string;
}

/** `Cache-Control` of catalog reads, which any cache may share. */
export function publicCache(deps: RouteDeps): string {
  return `public, max-age=${deps.cacheSeconds}`;
}

/** "actors" → "Actor": how messages name one record of a family. */
export function title(store: FamilyStore): string {
  return capitalize(store.family.singular);
}

/** The position of the record named by the `uuid` route parameter: 400 if malformed, 404 if absent. */
export function positionOf(ctx: Context, store: FamilyStore): number {
  const uuid = checkedUuid(String(ctx.params.uuid));
  const position = store.position(uuid);
  if (position === undefined) throw new HttpError(404, `${title(store)} '${uuid}' not found`);
  return position;
}

/** A random position of `store`, or a 404 naming the empty family. */
export function randomPosition(store: FamilyStore): number {
  const position = store.randomPosition();
  if (position === undefined) throw new HttpError(404, `There are no ${store.family.name} to pick from`);
  return position;
}
