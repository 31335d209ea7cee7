import { checkedUuid } from '../catalog/href.ts';
import type { FamilyStore } from '../catalog/store.ts';
import { HttpError } from '../lib/http-error.ts';
import { capitalize } from '../lib/text.ts';
import type { ReadExchange, ReadSettings } from './types.ts';

/** `Cache-Control` of catalog reads, which any cache may share. */
export function publicCache(settings: ReadSettings): string {
  return `public, max-age=${settings.cacheSeconds}`;
}

/** "actors" → "Actor": how messages name one record of a family. */
export function title(store: FamilyStore): string {
  return capitalize(store.family.singular);
}

/** The position of the record named by the `uuid` route parameter: 400 if malformed, 404 if absent. */
export function positionOf(x: { readonly params: Readonly<Record<string, string>> }, store: FamilyStore): number {
  const uuid = checkedUuid(String(x.params.uuid));
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

/** Finds the record a route names: a uuid parameter, or the single overview. */
export type Locate = <Entry>(x: ReadExchange<Entry>, store: FamilyStore) => number;

/**
 * What a catalog answer puts before the paths of the pictures the catalog serves (`/images/…`):
 * where the service was reached, asked of `origin` (which varies the answer on what it reads)
 * only when the catalog names a picture of its own; empty in HawAPI's layout (absolute URLs
 * served unchanged).
 */
export function picturePrefix(catalog: { namesPictures: boolean }, origin: () => string): string {
  return catalog.namesPictures ? origin() : '';
}

/** `picturePrefix` of a read. */
export function pictureOrigin<Entry>(x: ReadExchange<Entry>): string {
  return picturePrefix(x.served.catalog, () => x.origin());
}
