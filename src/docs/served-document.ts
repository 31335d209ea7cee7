import type { Catalog } from '../catalog/catalog.ts';
import { buildOpenApi, type OpenApiOptions } from './openapi.ts';
import type { Json } from './schemas.ts';

/**
 * The OpenAPI document as the server serves it for `catalog`: named after its series, its
 * examples the first record of each family (and that actor's first social network), so that
 * "Try it out", a collection's request or a generated client's first call answers 200.
 *
 * @example
 * servedDocument(catalog, { defaultLanguage: 'en-US', maxPageSize: 50, maxCsvRows: 100_000 }).info.title;
 */
export function servedDocument(catalog: Catalog, options: OpenApiOptions): Json {
  const overview = catalog.store('overview').translation(0, catalog.defaultLanguage).fields;
  const examples: NonNullable<OpenApiOptions['examples']> = Object.fromEntries(
    [...catalog.stores].flatMap(([name, store]) => (store.size ? [[name, store.records[0]!.uuid]] : [])),
  );
  const actors = catalog.store('actors');
  const socials = actors.size ? actors.records[0]!.socials : undefined;
  const social = Array.isArray(socials) ? (socials[0] as { social?: unknown } | undefined)?.social : undefined;
  if (typeof social === 'string') examples.social = social;
  return buildOpenApi({ ...options, ...(overview.title ? { series: String(overview.title) } : {}), examples });
}
