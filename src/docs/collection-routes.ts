import { HttpError } from '../lib/http-error.ts';
import { countsIn, type RouteTable } from '../http/routing.ts';
import { servedTo } from '../http/caller-view.ts';
import { requestOrigin } from '../http/origin.ts';
import { send } from '../http/send.ts';
import type { ServedCatalog } from '../served/served-catalog.ts';
import type { OpenApiOptions } from './openapi.ts';
import { servedDocument } from './served-document.ts';
import { COLLECTION_FORMATS } from './collections/formats.ts';
import { planCollection } from './collections/plan-collection.ts';
import type { JsonObject } from './collections/sketch.ts';

/** What the collections need: the document's settings, the catalog, the public address, how long caches keep them. */
export interface CollectionRouteOptions extends OpenApiOptions {
  served: ServedCatalog;
  cacheControl: string;
  /** The address in `baseUrl` (`PUBLIC_URL`); unset: where the collection was asked from. */
  publicUrl?: string;
}

/**
 * `GET /api/collections/{name}`: the request collections made from the OpenAPI document of
 * the catalog served (its uuids in every example) for this server's address: `postman.json`,
 * `bruno.json`, `catalog.http`, each as an attachment. Made on first use and cached with the
 * catalog's answers; free of the rate limits, as the reference is.
 *
 * @example
 * collectionRoutes(router, { served, cacheControl: 'public, max-age=300', defaultLanguage: 'en-US', maxPageSize: 50 });
 */
export function collectionRoutes(router: RouteTable, options: CollectionRouteOptions): void {
  const { served, cacheControl, publicUrl, ...document } = options;
  router.get('/api/collections/:name', countsIn('free'), (ctx) => {
    const name = String(ctx.params.name);
    // Own names only: `toString` or `__proto__` is no collection.
    const format = Object.hasOwn(COLLECTION_FORMATS, name) ? COLLECTION_FORMATS[name] : undefined;
    if (!format)
      throw new HttpError(
        404,
        `There is no collection '${name}'; there are ${Object.keys(COLLECTION_FORMATS).join(', ')}`,
      );
    if (!served.ready) throw new HttpError(503, 'The catalog is not loaded yet: its collections name its records');
    const origin = requestOrigin(ctx, publicUrl);
    const { catalog, cache } = servedTo(ctx, { served });
    const entry = cache.get(`collections/${name} ${origin}`, () => ({
      json: format.write(planCollection(servedDocument(catalog, document) as JsonObject, origin)),
      headers: { 'Content-Type': format.type, 'Content-Disposition': `attachment; filename="${name}"` },
    }));
    send(ctx, entry, cacheControl);
  });
}
