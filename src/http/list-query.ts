import type { Context } from 'koa';
import { sortableFields, type Family } from '../catalog/families.ts';
import { parseFilter } from '../catalog/filter-syntax.ts';
import type { Condition } from '../catalog/filter.ts';
import type { Direction } from '../catalog/order.ts';
import { HttpError } from '../lib/http-error.ts';
import { single } from './language.ts';
import { parseShape, type Shape } from './shape.ts';
import { words } from '../catalog/search.ts';

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

/** Parameters that are not filters. */
export const LIST_PARAMETERS = ['page', 'size', 'sort', 'order', 'language', 'q', 'expand', 'fields'];

function parseSearch(ctx: Context): string[] | undefined {
  const q = single(ctx, 'q');
  if (q === undefined) return undefined;
  const found = [...new Set(words(q))];
  if (found.length === 0) throw new HttpError(400, `Parameter 'q' has no words to search for, got '${q}'`);
  return found;
}

function positive(ctx: Context, name: string, fallback: number): number {
  const raw = single(ctx, name);
  if (raw === undefined) return fallback;
  if (!/^[1-9]\d*$/.test(raw)) throw new HttpError(400, `Parameter '${name}' must be a positive integer, got '${raw}'`);
  return Math.min(Number(raw), Number.MAX_SAFE_INTEGER);
}

function direction(raw: string, from: string): Direction {
  const lower = raw.toLowerCase();
  if (lower !== 'asc' && lower !== 'desc') throw new HttpError(400, `Sort direction in '${from}' must be asc or desc, got '${raw}'`);
  return lower;
}

function parseSort(ctx: Context, family: Family): ListQuery['sort'] {
  const sort = single(ctx, 'sort');
  const order = single(ctx, 'order');
  if (sort === undefined) {
    if (order !== undefined) throw new HttpError(400, "Parameter 'order' needs a 'sort' field");
    return undefined;
  }
  const [field = '', suffix, ...extra] = sort.split(',');
  if (extra.length > 0) throw new HttpError(400, `Parameter 'sort' takes one field and an optional direction, got '${sort}'`);
  const info = family.fields.get(field);
  if (!info || info.list) {
    throw new HttpError(400, `Cannot sort ${family.name} by '${field}'; sortable: ${sortableFields(family).join(', ')}`);
  }
  const fromSuffix = suffix === undefined ? undefined : direction(suffix, 'sort');
  const fromOrder = order === undefined ? undefined : direction(order, 'order');
  if (fromSuffix && fromOrder && fromSuffix !== fromOrder) {
    throw new HttpError(400, `Parameters 'sort' (${fromSuffix}) and 'order' (${fromOrder}) disagree`);
  }
  return { field, direction: fromSuffix ?? fromOrder ?? 'asc' };
}

/**
 * Reads paging, sort and filters of a list request. Every parameter that is not a list
 * parameter must name a filterable field; an unknown one is a 400 listing them.
 *
 * @example
 * // GET /api/v1/actors?gender=:1,2&sort=birth_date,DESC&size=5
 * parseListQuery(ctx, family('actors'), 50);
 * // { page: 1, size: 5, sort: { field: 'birth_date', direction: 'desc' }, conditions: [...] }
 */
export function parseListQuery(ctx: Context, family: Family, maxPageSize: number): ListQuery {
  const page = positive(ctx, 'page', 1);
  const requested = positive(ctx, 'size', 10);
  const sort = parseSort(ctx, family);
  const conditions: Condition[] = [];
  for (const [name, value] of Object.entries(ctx.query)) {
    if (LIST_PARAMETERS.includes(name)) continue;
    const field = family.fields.get(name);
    if (!field) {
      throw new HttpError(400, `Unknown filter '${name}' for ${family.name}; filterable: ${[...family.fields.keys()].join(', ')}`);
    }
    for (const raw of Array.isArray(value) ? value : [value ?? '']) {
      const parsed = parseFilter(field, raw);
      if ('error' in parsed) throw new HttpError(400, parsed.error);
      conditions.push(parsed.condition);
    }
  }
  const search = parseSearch(ctx);
  const shape = parseShape(ctx, family);
  return { page, size: Math.min(requested, maxPageSize), ...(sort ? { sort } : {}), conditions, ...(search ? { search } : {}), shape };
}
