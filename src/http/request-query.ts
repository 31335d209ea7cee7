import type { Context } from 'koa';
import type { Catalog } from '../catalog/catalog.ts';
import { relationsOf, servedFields, sortableFields, type Family } from '../catalog/families.ts';
import type { Condition } from '../catalog/filter.ts';
import { parseFilter } from '../catalog/filter-syntax.ts';
import type { Direction } from '../catalog/order.ts';
import { words } from '../catalog/search.ts';
import { HttpError } from '../lib/http-error.ts';

/** How a record is served: relations to replace by their records, and the fields to keep. */
export interface Shape {
  expand: string[];
  /** Undefined: every field. */
  fields?: string[];
}

/** What a list request asks for, checked and typed. */
export interface ListQuery {
  page: number;
  size: number;
  sort?: { field: string; direction: Direction };
  conditions: Condition[];
  /** The words of `q`, normalized for search. */
  search?: string[];
  shape: Shape;
}

/** The query parameter as one string; a repeated parameter is a 400 naming it. */
function single(ctx: Context, name: string): string | undefined {
  const value = ctx.query[name];
  if (Array.isArray(value)) throw new HttpError(400, `Parameter '${name}' was given ${value.length} times; give it once`);
  return value;
}

/** The catalog language `asked` names (any case), or a 400 listing the available ones. */
export function knownLanguage(catalog: Catalog, asked: string): string {
  const found = catalog.languages.find((l) => l.toLowerCase() === asked.toLowerCase());
  if (!found) throw new HttpError(400, `Unknown language '${asked}'; available: ${catalog.languages.join(', ')}`);
  return found;
}

/**
 * The language to serve a family in: the `language` parameter (any case, answered in
 * canonical form), else the best match of `Accept-Language` among the catalog's languages
 * (q-values honoured, `pt` matching `pt-BR`), else the default; a `language` the catalog
 * does not have is a 400 listing the available ones. Untranslated families ignore both
 * (official clients send `language` on every request) unless they expand relations, whose
 * records are served in it. Answers that depend on it vary on `Accept-Language`.
 *
 * @example
 * // GET /api/v1/episodes?language=PT-br
 * requestLanguage(ctx, catalog, family('episodes')); // 'pt-BR'
 */
export function requestLanguage(ctx: Context, catalog: Catalog, family: Family): string {
  if (!family.translation && ctx.query.expand === undefined) return catalog.defaultLanguage;
  const asked = single(ctx, 'language');
  if (asked === undefined) return acceptedLanguage(ctx, catalog);
  ctx.vary('Accept-Language');
  return knownLanguage(catalog, asked);
}

/** The best match of `Accept-Language` among the catalog's languages, else the default; the answer varies on it. */
export function acceptedLanguage(ctx: Context, catalog: Catalog): string {
  ctx.vary('Accept-Language');
  if (ctx.get('Accept-Language')) {
    const best = ctx.acceptsLanguages(...catalog.languages);
    if (typeof best === 'string') return best;
  }
  return catalog.defaultLanguage;
}

/** Checks the `language` parameter of an endpoint that serves every language (a 400 when unknown). */
export function checkLanguageParameter(ctx: Context, catalog: Catalog): void {
  const asked = single(ctx, 'language');
  if (asked !== undefined) knownLanguage(catalog, asked);
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
 * readShape(ctx, family('actors')); // { expand: ['character'], fields: ['first_name', 'character'] }
 */
export function readShape(ctx: Context, family: Family): Shape {
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

function positive(ctx: Context, name: string, fallback: number): number {
  const raw = single(ctx, name);
  if (raw === undefined) return fallback;
  if (!/^[1-9]\d*$/.test(raw)) throw new HttpError(400, `Parameter '${name}' must be a positive integer, got '${raw}'`);
  return Math.min(Number(raw), Number.MAX_SAFE_INTEGER);
}

function direction(raw: string, from: string): Direction {
  const lower = raw.toLowerCase();
  if (lower !== 'asc' && lower !== 'desc') throw new HttpError(400, `Sort direction in '${from}' must be asc or desc (any case), got '${raw}'`);
  return lower;
}

/** Reads `sort` (`field` or `field,direction`) and `order`; each value is checked before how they combine. */
function readSort(ctx: Context, family: Family): ListQuery['sort'] {
  const sort = single(ctx, 'sort');
  const order = single(ctx, 'order');
  const fromOrder = order === undefined ? undefined : direction(order, 'order');
  if (sort === undefined) {
    if (order !== undefined) throw new HttpError(400, `Parameter 'order' ('${order}') needs a 'sort' field`);
    return undefined;
  }
  const [field = '', suffix, ...extra] = sort.split(',');
  if (extra.length > 0) throw new HttpError(400, `Parameter 'sort' takes one field and an optional direction, got '${sort}'`);
  const fromSuffix = suffix === undefined ? undefined : direction(suffix, 'sort');
  const info = family.fields.get(field);
  if (!info || info.list) {
    throw new HttpError(400, `Cannot sort ${family.name} by '${field}'; sortable: ${sortableFields(family).join(', ')}`);
  }
  if (fromSuffix && fromOrder && fromSuffix !== fromOrder) {
    throw new HttpError(400, `Parameters 'sort' (${fromSuffix}) and 'order' (${fromOrder}) disagree`);
  }
  return { field, direction: fromSuffix ?? fromOrder ?? 'asc' };
}

function readSearch(ctx: Context): string[] | undefined {
  const q = single(ctx, 'q');
  if (q === undefined) return undefined;
  const found = [...new Set(words(q))];
  if (found.length === 0) throw new HttpError(400, `Parameter 'q' has no words to search for, got '${q}'`);
  return found;
}

/** The parameters of a list that are not filters, each read by its own reader above. */
const LIST_OPTIONS = new Set(['page', 'size', 'sort', 'order', 'language', 'q', 'expand', 'fields']);

/**
 * Reads a list request's query string: paging, sort, search, shape and filters. Every other
 * parameter must name a filterable field; an unknown one is a 400 listing them. (The
 * language is read first, by `requestLanguage`, as it picks the cached answer.)
 *
 * @example
 * // GET /api/v1/actors?gender=:1,2&sort=birth_date,DESC&size=5
 * readListQuery(ctx, family('actors'), 50);
 * // { page: 1, size: 5, sort: { field: 'birth_date', direction: 'desc' }, conditions: [...], shape: { expand: [] } }
 */
export function readListQuery(ctx: Context, family: Family, maxPageSize: number): ListQuery {
  const page = positive(ctx, 'page', 1);
  const size = Math.min(positive(ctx, 'size', 10), maxPageSize);
  const sort = readSort(ctx, family);
  const conditions: Condition[] = [];
  for (const [name, value] of Object.entries(ctx.query)) {
    if (LIST_OPTIONS.has(name)) continue;
    const field = family.fields.get(name);
    if (!field) throw new HttpError(400, `Unknown filter '${name}' for ${family.name}; filterable: ${[...family.fields.keys()].join(', ')}`);
    for (const raw of Array.isArray(value) ? value : [value ?? '']) {
      const parsed = parseFilter(field, raw);
      if ('error' in parsed) throw new HttpError(400, parsed.error);
      conditions.push(parsed.condition);
    }
  }
  const search = readSearch(ctx);
  return { page, size, ...(sort ? { sort } : {}), conditions, ...(search ? { search } : {}), shape: readShape(ctx, family) };
}
