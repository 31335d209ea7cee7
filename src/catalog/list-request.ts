import { HttpError } from '../lib/http-error.ts';
import { relationsOf, servedFields, sortableFields, type Family } from './families.ts';
import type { Condition } from './filter.ts';
import { parseFilter } from './filter-syntax.ts';
import type { Direction } from './order.ts';
import type { Postings } from './postings.ts';
import { listPositions } from './query.ts';
import { words } from './search.ts';
import type { FamilyStore } from './store.ts';

// The one reading of a list request, for REST's query string and GraphQL's arguments alike:
// both faces hand over plain values and get the same checks, messages and page.

/** How a record is served: relations to replace by their records, and the fields to keep. */
export interface Shape {
  expand: string[];
  /** Undefined: every field. */
  fields?: string[];
}

/** A parameter as a face received it: text, numbers from GraphQL, or text given more than once. */
type Given<T> = T | readonly string[] | undefined;

/** A list request as a face received it: text from a query string, numbers from GraphQL. */
export interface ListParameters {
  page?: Given<string | number>;
  size?: Given<string | number>;
  /** `field` or `field,direction`. */
  sort?: Given<string>;
  order?: Given<string>;
  q?: Given<string>;
  /** Comma-separated relation names. */
  expand?: Given<string>;
  /** Comma-separated field names. */
  fields?: Given<string>;
  /** Filters in the query-string syntax, each `[field, value]` (a field may come more than once). */
  filters?: readonly (readonly [string, string])[];
  /** Conditions a face has already typed (GraphQL's filter input). */
  conditions?: readonly Condition[];
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

/** The parameter given once; more than once is a 400 naming it. */
export function once<T>(name: string, value: Given<T>): T | undefined {
  if (Array.isArray(value))
    throw new HttpError(400, `Parameter '${name}' was given ${value.length} times; give it once`);
  return value as T | undefined;
}

/** A comma-separated parameter as a list of distinct names, in the order given. */
function names(parameter: string, given: Given<string>): string[] | undefined {
  const raw = once(parameter, given);
  if (raw === undefined) return undefined;
  const list = [...new Set(raw.split(',').map((name) => name.trim()))];
  if (list.some((name) => name === ''))
    throw new HttpError(400, `Parameter '${parameter}' needs comma-separated names, got '${raw}'`);
  return list;
}

/**
 * Reads `expand` and `fields`: every name must be one of the family's relations or fields.
 *
 * @example
 * readShape(family('actors'), { expand: 'character', fields: 'first_name,character' });
 * // { expand: ['character'], fields: ['first_name', 'character'] }
 */
export function readShape(
  family: Family,
  { expand: expandText, fields: fieldsText }: Pick<ListParameters, 'expand' | 'fields'>,
): Shape {
  const expand = names('expand', expandText) ?? [];
  const relations = relationsOf(family);
  for (const name of expand) {
    if (!relations.includes(name)) {
      const listed = relations.length ? `expandable: ${relations.join(', ')}` : 'it has no relations';
      throw new HttpError(400, `Cannot expand '${name}' of ${family.name}; ${listed}`);
    }
  }
  const fields = names('fields', fieldsText);
  const known = servedFields(family);
  for (const name of fields ?? []) {
    if (!known.includes(name))
      throw new HttpError(400, `Unknown field '${name}' for ${family.name}; fields: ${known.join(', ')}`);
  }
  return { expand, ...(fields ? { fields } : {}) };
}

function positive(name: string, given: Given<string | number>, fallback: number): number {
  const raw = once(name, given);
  if (raw === undefined) return fallback;
  if (typeof raw === 'number' ? !Number.isInteger(raw) || raw < 1 : !/^[1-9]\d*$/.test(raw)) {
    throw new HttpError(400, `Parameter '${name}' must be a positive integer, got '${raw}'`);
  }
  return Math.min(Number(raw), Number.MAX_SAFE_INTEGER);
}

function direction(raw: string, from: string): Direction {
  const lower = raw.toLowerCase();
  if (lower !== 'asc' && lower !== 'desc')
    throw new HttpError(400, `Sort direction in '${from}' must be asc or desc (any case), got '${raw}'`);
  return lower;
}

/** Reads `sort` (`field` or `field,direction`) and `order`; each value is checked before how they combine. */
function readSort(family: Family, params: ListParameters): ListQuery['sort'] {
  const sort = once('sort', params.sort);
  const order = once('order', params.order);
  const fromOrder = order === undefined ? undefined : direction(order, 'order');
  if (sort === undefined) {
    if (order !== undefined) throw new HttpError(400, `Parameter 'order' ('${order}') needs a 'sort' field`);
    return undefined;
  }
  const [field = '', suffix, ...extra] = sort.split(',');
  if (extra.length > 0)
    throw new HttpError(400, `Parameter 'sort' takes one field and an optional direction, got '${sort}'`);
  const fromSuffix = suffix === undefined ? undefined : direction(suffix, 'sort');
  const info = family.fields.get(field);
  if (!info || info.list) {
    throw new HttpError(
      400,
      `Cannot sort ${family.name} by '${field}'; sortable: ${sortableFields(family).join(', ')}`,
    );
  }
  if (fromSuffix && fromOrder && fromSuffix !== fromOrder) {
    throw new HttpError(400, `Parameters 'sort' (${fromSuffix}) and 'order' (${fromOrder}) disagree`);
  }
  return { field, direction: fromSuffix ?? fromOrder ?? 'asc' };
}

function readSearch(given: Given<string>): string[] | undefined {
  const q = once('q', given);
  if (q === undefined) return undefined;
  const found = [...new Set(words(q))];
  if (found.length === 0) throw new HttpError(400, `Parameter 'q' has no words to search for, got '${q}'`);
  return found;
}

/** The typed conditions of query-string filters: each must name a filterable field. */
function readFilters(family: Family, filters: ListParameters['filters']): Condition[] {
  const conditions: Condition[] = [];
  for (const [name, raw] of filters ?? []) {
    const field = family.fields.get(name);
    if (!field)
      throw new HttpError(
        400,
        `Unknown filter '${name}' for ${family.name}; filterable: ${[...family.fields.keys()].join(', ')}`,
      );
    const parsed = parseFilter(field, raw);
    if ('error' in parsed) throw new HttpError(400, parsed.error);
    conditions.push(parsed.condition);
  }
  return conditions;
}

/**
 * Checks and types a list request: paging (the size capped at `maxPageSize`), sort, search,
 * shape and filters; anything wrong is a 400 naming the parameter.
 *
 * @example
 * readListQuery(family('actors'), { filters: [['gender', ':1,2']], sort: 'birth_date,DESC', size: '5' }, 50);
 * // { page: 1, size: 5, sort: { field: 'birth_date', direction: 'desc' }, conditions: [...], shape: { expand: [] } }
 */
export function readListQuery(family: Family, params: ListParameters, maxPageSize: number): ListQuery {
  const page = positive('page', params.page, 1);
  const size = Math.min(positive('size', params.size, 10), maxPageSize);
  const sort = readSort(family, params);
  const conditions = [...(params.conditions ?? []), ...readFilters(family, params.filters)];
  const search = readSearch(params.q);
  return {
    page,
    size,
    ...(sort ? { sort } : {}),
    conditions,
    ...(search ? { search } : {}),
    shape: readShape(family, params),
  };
}

/** One page of a list: the positions on it and the totals. */
export interface ListPage {
  positions: Postings;
  page: number;
  size: number;
  totalItems: number;
  totalPages: number;
}

/**
 * The page a list query asks for, in `language`: the records matching, in order, cut to the page.
 *
 * @example
 * listPage(store, readListQuery(store.family, { page: '2' }, 50), 'en-US');
 * // { positions, page: 2, size: 10, totalItems: 35, totalPages: 4 }
 */
export function listPage(store: FamilyStore, query: ListQuery, language: string): ListPage {
  const all = listPositions(store, query, language);
  const from = Math.min((query.page - 1) * query.size, all.length);
  const positions = all.subarray(from, Math.min(from + query.size, all.length));
  return {
    positions,
    page: query.page,
    size: query.size,
    totalItems: all.length,
    totalPages: Math.ceil(all.length / query.size),
  };
}
