import Negotiator from 'negotiator';
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
import type { HeaderReader, QueryValue, ReadExchange } from './types.ts';

/** The query parameter as one string; a repeated parameter is a 400 naming it. */
const single = <Entry>(x: ReadExchange<Entry>, name: string): string | undefined => once<string>(name, x.query[name]);

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
 * requestLanguage(x, catalog, family('episodes')); // 'pt-BR'
 */
export function requestLanguage<Entry>(x: ReadExchange<Entry>, catalog: Catalog, family: Family): string {
  if (!family.translation && x.query.expand === undefined) return catalog.defaultLanguage;
  const asked = single(x, 'language');
  if (asked === undefined) return acceptedLanguage(x, catalog);
  x.vary('Accept-Language');
  return knownLanguage(catalog, asked);
}

/**
 * The best match of `Accept-Language` among the catalog's languages, else the default; the
 * answer varies on it. Negotiated by `negotiator`, as Koa's `acceptsLanguages` does.
 */
export function acceptedLanguage(request: HeaderReader, catalog: Catalog): string {
  request.vary('Accept-Language');
  const header = request.header('accept-language');
  if (header) {
    const best = new Negotiator({ headers: { 'accept-language': header } }).languages([...catalog.languages])[0];
    if (best !== undefined) return best;
  }
  return catalog.defaultLanguage;
}

/** Checks the `language` parameter of an endpoint that serves every language (a 400 when unknown). */
export function checkLanguageParameter<Entry>(x: ReadExchange<Entry>, catalog: Catalog): void {
  const asked = single(x, 'language');
  if (asked !== undefined) knownLanguage(catalog, asked);
}

/** The parameters of a list that are not filters. */
const LIST_OPTIONS = new Set(['page', 'size', 'sort', 'order', 'language', 'q', 'expand', 'fields', 'format']);

/** Reads `expand` and `fields` of a request (see the catalog's `readShape`). */
export function readShape<Entry>(x: ReadExchange<Entry>, family: Family): Shape {
  return readCatalogShape(family, { expand: x.query.expand, fields: x.query.fields });
}

/**
 * A list request's query string as the catalog's list request: every parameter that is not
 * an option (nor one the face keeps for itself, `ReadExchange.ignores`) is a filter. (The
 * language is read first, by `requestLanguage`, as it picks the cached answer.)
 *
 * @example
 * // GET /api/v1/actors?gender=:1,2&sort=birth_date,DESC&size=5
 * readListQuery(x, family('actors'), 50);
 * // { page: 1, size: 5, sort: { field: 'birth_date', direction: 'desc' }, conditions: [...], shape: { expand: [] } }
 */
export function readListQuery<Entry>(x: ReadExchange<Entry>, family: Family, maxPageSize: number): ListQuery {
  const { page, size, sort, order, q, expand, fields } = x.query;
  const filters: [string, string][] = [];
  for (const [name, value] of Object.entries(x.query) as [string, QueryValue][]) {
    if (LIST_OPTIONS.has(name) || x.ignores(name)) continue;
    for (const raw of Array.isArray(value) ? value : [value ?? '']) filters.push([name, raw]);
  }
  return readCatalogListQuery(family, { page, size, sort, order, q, expand, fields, filters }, maxPageSize);
}
