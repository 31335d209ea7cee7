import type { Context } from 'koa';
import type { Catalog } from '../catalog/catalog.ts';
import type { Family } from '../catalog/families.ts';
import { knownLanguage } from '../catalog/language.ts';
import {
  once,
  readListQuery as readCatalogListQuery,
  readShape as readCatalogShape,
  type ListQuery,
  type Shape,
} from '../catalog/list-request.ts';
import { isSimulationParam } from './simulation.ts';

/** The query parameter as one string; a repeated parameter is a 400 naming it. */
const single = (ctx: Context, name: string): string | undefined => once<string>(name, ctx.query[name]);

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

/** The parameters of a list that are not filters. */
const LIST_OPTIONS = new Set(['page', 'size', 'sort', 'order', 'language', 'q', 'expand', 'fields']);

/** Reads `expand` and `fields` of a request (see the catalog's `readShape`). */
export function readShape(ctx: Context, family: Family): Shape {
  return readCatalogShape(family, { expand: ctx.query.expand, fields: ctx.query.fields });
}

/**
 * A list request's query string as the catalog's list request: every parameter that is not
 * an option (nor, under `SIMULATE`, `_delay` or `_fail`) is a filter. (The language is read first, by `requestLanguage`, as it picks the
 * cached answer.)
 *
 * @example
 * // GET /api/v1/actors?gender=:1,2&sort=birth_date,DESC&size=5
 * readListQuery(ctx, family('actors'), 50);
 * // { page: 1, size: 5, sort: { field: 'birth_date', direction: 'desc' }, conditions: [...], shape: { expand: [] } }
 */
export function readListQuery(ctx: Context, family: Family, maxPageSize: number): ListQuery {
  const { page, size, sort, order, q, expand, fields } = ctx.query;
  const filters: [string, string][] = [];
  for (const [name, value] of Object.entries(ctx.query)) {
    if (LIST_OPTIONS.has(name) || isSimulationParam(ctx, name)) continue;
    for (const raw of Array.isArray(value) ? value : [value ?? '']) filters.push([name, raw]);
  }
  return readCatalogListQuery(family, { page, size, sort, order, q, expand, fields, filters }, maxPageSize);
}
