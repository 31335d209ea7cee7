import type { Context } from 'koa';
import type { Catalog } from '../catalog/catalog.ts';
import { HttpError } from '../lib/http-error.ts';

/** The query parameter as one string; a repeated parameter is a 400 naming it. */
export function single(ctx: Context, name: string): string | undefined {
  const value = ctx.query[name];
  if (Array.isArray(value)) throw new HttpError(400, `Parameter '${name}' was given ${value.length} times; give it once`);
  return value;
}

/**
 * The language to serve: the `language` parameter (case-insensitive, answered in canonical
 * form), else the best match of `Accept-Language` among the catalog's languages (q-values
 * honoured, `pt` matching `pt-BR`), else the default. A `language` the catalog does not have
 * is a 400 listing the available ones.
 *
 * @example
 * // GET /api/v1/episodes?language=PT-br
 * selectLanguage(ctx, catalog); // 'pt-BR'
 */
export function selectLanguage(ctx: Context, catalog: Catalog): string {
  const asked = single(ctx, 'language');
  if (asked !== undefined) {
    const wanted = asked.toLowerCase();
    const found = catalog.languages.find((l) => l.toLowerCase() === wanted);
    if (!found) throw new HttpError(400, `Unknown language '${asked}'; available: ${catalog.languages.join(', ')}`);
    return found;
  }
  if (ctx.get('Accept-Language')) {
    const best = ctx.acceptsLanguages(...catalog.languages);
    if (typeof best === 'string') return best;
  }
  return catalog.defaultLanguage;
}
