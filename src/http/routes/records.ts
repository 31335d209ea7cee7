import type { Context } from 'koa';
import type { FamilyName } from '../../catalog/families.ts';
import { familyPath, hrefOf } from '../../catalog/href.ts';
import type { CachedResponse } from '../../served/cached-response.ts';
import type { Served } from '../../served/served-catalog.ts';
import { listPage, type Shape } from '../../catalog/list-request.ts';
import { readListQuery, readShape, requestLanguage } from '../request-query.ts';
import { pageHeaders } from '../pagination.ts';
import { shapeKey, shapeRecord } from '../../catalog/shape.ts';
import { pictureOrigin } from '../origin.ts';
import { send } from '../send.ts';
import { servedTo } from '../caller-view.ts';
import { positionOf, publicCache, randomPosition, type RouteDeps } from './context.ts';
import type { RouteTable } from '../routing.ts';

/**
 * One record's answer in `language` and `shape` (whole when none is given), its pictures
 * under `origin` (see `pictureOrigin`), from the cache: what a GET by uuid sends, and what a
 * write answers and checks `If-Match` against.
 *
 * @example
 * recordEntry(served.shared, 'actors', 0, 'en-US', origin).etagFor('identity'); // '"…"'
 */
export function recordEntry(
  served: Served,
  name: FamilyName,
  position: number,
  language: string,
  origin: string,
  shape: Shape = { expand: [] },
): CachedResponse {
  const { catalog, cache } = served;
  const store = catalog.store(name);
  const uuid = store.records[position]!.uuid;
  return cache.get(`${language} ${origin}${hrefOf(name, uuid)}?${shapeKey(shape)}`, () => {
    const record = shapeRecord(catalog, store, position, language, shape, origin);
    const inLanguage = store.translation(position, language).language;
    const headers: Record<string, string> = store.family.translation ? { 'Content-Language': inLanguage } : {};
    return { json: JSON.stringify(record), headers };
  });
}

/** Sends one record from the cache, keyed by its path, language and shape. */
function sendRecord(
  ctx: Context,
  deps: RouteDeps,
  served: Served,
  name: FamilyName,
  position: number,
  language: string,
  cacheControl: string,
): void {
  const origin = pictureOrigin(ctx, deps.publicUrl, served.catalog);
  send(
    ctx,
    recordEntry(served, name, position, language, origin, readShape(ctx, served.catalog.store(name).family)),
    cacheControl,
  );
}

/** `GET /api/v1/F`, `/api/v1/F/random` and `/api/v1/F/{uuid}` for every family but the overview. */
export function recordRoutes(router: RouteTable, deps: RouteDeps, name: FamilyName): void {
  const base = familyPath(name);

  router.get(base, (ctx) => {
    const { catalog, cache } = servedTo(ctx, deps);
    const store = catalog.store(name);
    const language = requestLanguage(ctx, catalog, catalog.store(name).family);
    const origin = pictureOrigin(ctx, deps.publicUrl, catalog);
    const entry = cache.get(`${language} ${origin}${ctx.url}`, () => {
      const query = readListQuery(ctx, store.family, deps.maxPageSize);
      const page = listPage(store, query, language);
      const records = Array.from(page.positions, (p) => shapeRecord(catalog, store, p, language, query.shape, origin));
      const headers = pageHeaders(ctx, query, page.totalItems, records.length);
      if (store.family.translation) headers['Content-Language'] = language;
      // An empty page costs nothing to find again: it is not kept (see BuiltAnswer.cheap).
      return { json: JSON.stringify(records), headers, cheap: records.length === 0 };
    });
    send(ctx, entry, publicCache(deps));
  });

  router.get(`${base}/random`, (ctx) => {
    const served = servedTo(ctx, deps);
    const { catalog } = served;
    const language = requestLanguage(ctx, catalog, catalog.store(name).family);
    sendRecord(ctx, deps, served, name, randomPosition(catalog.store(name)), language, 'no-store');
  });

  router.get(`${base}/:uuid`, (ctx) => {
    const served = servedTo(ctx, deps);
    const { catalog } = served;
    const language = requestLanguage(ctx, catalog, catalog.store(name).family);
    sendRecord(ctx, deps, served, name, positionOf(ctx, catalog.store(name)), language, publicCache(deps));
  });
}
