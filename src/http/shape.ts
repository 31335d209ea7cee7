import type { Context } from 'koa';
import type { Catalog } from '../catalog/catalog.ts';
import { relationsOf, servedFields, type Family, type FamilyName } from '../catalog/families.ts';
import type { FamilyStore } from '../catalog/store.ts';
import { HttpError } from '../lib/http-error.ts';
import { single } from './language.ts';
import { present } from './present.ts';

/** How a record is served: relations to replace by their records, and the fields to keep. */
export interface Shape {
  expand: string[];
  /** Undefined: every field. */
  fields?: string[];
}

/** A comma-separated parameter as a list of distinct names, in the order given. */
function names(ctx: Context, parameter: string): string[] | undefined {
  const raw = single(ctx, parameter);
  if (raw === undefined) return undefined;
  const list = [...new Set(raw.split(',').map((name) => name.trim()))];
  if (list.some((name) => name === '')) throw new HttpError(400, `Parameter '${parameter}' needs comma-separated names, got '${raw}'`);
  return list;
}

/**
 * Reads `expand` and `fields`: every name must be one of the family's relations or fields.
 *
 * @example
 * // GET /api/v1/actors?expand=character&fields=first_name,character
 * parseShape(ctx, family('actors')); // { expand: ['character'], fields: ['first_name', 'character'] }
 */
export function parseShape(ctx: Context, family: Family): Shape {
  const expand = names(ctx, 'expand') ?? [];
  const relations = relationsOf(family);
  for (const name of expand) {
    if (!relations.includes(name)) {
      const listed = relations.length ? `expandable: ${relations.join(', ')}` : 'it has no relations';
      throw new HttpError(400, `Cannot expand '${name}' of ${family.name}; ${listed}`);
    }
  }
  const fields = names(ctx, 'fields');
  const known = servedFields(family);
  for (const name of fields ?? []) {
    if (!known.includes(name)) throw new HttpError(400, `Unknown field '${name}' for ${family.name}; fields: ${known.join(', ')}`);
  }
  return { expand, ...(fields ? { fields } : {}) };
}

/** The text a cache key needs to tell shapes apart. */
export function shapeKey({ expand, fields }: Shape): string {
  return `expand=${expand.join(',')}&fields=${fields?.join(',') ?? '*'}`;
}

/** The record an href points to, as served in `language`. */
function follow(catalog: Catalog, href: string, language: string): Record<string, unknown> {
  const [, , , name, uuid] = href.split('/');
  const store = catalog.store(name as FamilyName);
  return present(store, store.position(uuid!)!, language);
}

/**
 * A record as served, shaped: the named relations replaced by the related records (one level,
 * in the same language), then only `uuid`, `href` and the named fields kept.
 *
 * @example
 * shapeRecord(catalog, catalog.store('actors'), 0, 'en-US', { expand: ['character'], fields: ['character'] });
 * // { uuid, href, character: { uuid, href, first_name: 'Iris', ... } }
 */
export function shapeRecord(catalog: Catalog, store: FamilyStore, position: number, language: string, shape: Shape): Record<string, unknown> {
  const record = present(store, position, language);
  if (shape.expand.length === 0 && !shape.fields) return record;
  const shaped: Record<string, unknown> = { ...record };
  for (const relation of shape.expand) {
    const value = record[relation];
    if (typeof value === 'string') shaped[relation] = follow(catalog, value, language);
    else if (Array.isArray(value)) shaped[relation] = value.map((href: string) => follow(catalog, href, language));
  }
  if (!shape.fields) return shaped;
  const keep = new Set(['uuid', 'href', ...shape.fields]);
  return Object.fromEntries(Object.entries(shaped).filter(([name]) => keep.has(name)));
}
