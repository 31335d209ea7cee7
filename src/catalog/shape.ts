import type { Catalog } from './catalog.ts';
import { parseFamilyHref } from './href.ts';
import type { FamilyStore } from './store.ts';
import { present } from './present.ts';
import type { Shape } from './list-request.ts';

/** The text a cache key needs to tell shapes apart. */
export function shapeKey({ expand, fields }: Shape): string {
  return `expand=${expand.join(',')}&fields=${fields?.join(',') ?? '*'}`;
}

/** The record an href points to, as served in `language`. */
function follow(catalog: Catalog, href: string, language: string, origin: string): Record<string, unknown> {
  // Served records link only to records that exist (the catalog's checks).
  const { family, uuid } = parseFamilyHref(href)!;
  const store = catalog.store(family);
  return present(store, store.position(uuid)!, language, origin);
}

/**
 * A record as served, shaped: the named relations replaced by the related records (one level,
 * in the same language), then only `uuid`, `href` and the named fields kept. Pictures are
 * made absolute with `origin` (see `present`).
 *
 * @example
 * shapeRecord(catalog, catalog.store('actors'), 0, 'en-US', { expand: ['character'], fields: ['character'] }, origin);
 * // { uuid, href, character: { uuid, href, first_name: 'Iris', ... } }
 */
export function shapeRecord(
  catalog: Catalog,
  store: FamilyStore,
  position: number,
  language: string,
  shape: Shape,
  origin: string,
): Record<string, unknown> {
  const record = present(store, position, language, origin);
  if (shape.expand.length === 0 && !shape.fields) return record;
  const shaped: Record<string, unknown> = { ...record };
  for (const relation of shape.expand) {
    const value = record[relation];
    if (typeof value === 'string') shaped[relation] = follow(catalog, value, language, origin);
    else if (Array.isArray(value))
      shaped[relation] = value.map((href: string) => follow(catalog, href, language, origin));
  }
  if (!shape.fields) return shaped;
  const keep = new Set(['uuid', 'href', ...shape.fields]);
  return Object.fromEntries(Object.entries(shaped).filter(([name]) => keep.has(name)));
}
