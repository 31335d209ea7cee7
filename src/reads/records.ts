import type { FamilyName } from '../catalog/families.ts';
import { familyPath, hrefOf } from '../catalog/href.ts';
import { listPage, type Shape } from '../catalog/list-request.ts';
import { shapeKey, shapeRecord } from '../catalog/shape.ts';
import { pageHeaders } from './pagination.ts';
import { pictureOrigin, positionOf, publicCache, randomPosition } from './locate.ts';
import { sendCsvList } from './csv-list.ts';
import { listFormat } from './list-format.ts';
import { readListQuery, readShape, requestLanguage } from './request-query.ts';
import type { ReadExchange, ReadRoute, ReadServed, ReadSettings } from './types.ts';

/**
 * One record's answer in `language` and `shape` (whole when none is given), its pictures
 * under `origin` (see `pictureOrigin`), from the cache: what a GET by uuid sends, and what a
 * write answers and checks `If-Match` against.
 *
 * @example
 * recordEntry(served.shared, 'actors', 0, 'en-US', origin).etagFor('identity'); // '"…"'
 */
export function recordEntry<Entry>(
  served: ReadServed<Entry>,
  name: FamilyName,
  position: number,
  language: string,
  origin: string,
  shape: Shape = { expand: [] },
): Entry {
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

/** Sends the record `at` finds, in the request's language and shape (checked in that order). */
function sendRecord<Entry>(x: ReadExchange<Entry>, name: FamilyName, at: () => number, cacheControl: string): void {
  const store = x.served.catalog.store(name);
  const language = requestLanguage(x, x.served.catalog, store.family);
  const position = at();
  const origin = pictureOrigin(x);
  x.send(recordEntry(x.served, name, position, language, origin, readShape(x, store.family)), cacheControl);
}

/** `GET /api/v1/F`, `/api/v1/F/random` and `/api/v1/F/{uuid}` for every family but the overview. */
export function recordRoutes(settings: ReadSettings, name: FamilyName): ReadRoute[] {
  const base = familyPath(name);
  return [
    {
      path: base,
      handler: (x) => {
        const { catalog, cache } = x.served;
        const store = catalog.store(name);
        const language = requestLanguage(x, catalog, store.family);
        const origin = pictureOrigin(x);
        if (listFormat(x) === 'csv') return sendCsvList(x, settings, name, language, origin);
        const entry = cache.get(`${language} ${origin}${x.publicPath}?${x.querystring}`, () => {
          const query = readListQuery(x, store.family, settings.maxPageSize);
          const page = listPage(store, query, language);
          const records = Array.from(page.positions, (p) =>
            shapeRecord(catalog, store, p, language, query.shape, origin),
          );
          const headers = pageHeaders(x, query, page.totalItems, records.length);
          if (store.family.translation) headers['Content-Language'] = language;
          // An empty page costs nothing to find again: it is not kept (see BuiltAnswer.cheap).
          return { json: JSON.stringify(records), headers, cheap: records.length === 0 };
        });
        x.send(entry, publicCache(settings));
      },
    },
    {
      path: `${base}/random`,
      handler: (x) => sendRecord(x, name, () => randomPosition(x.served.catalog.store(name)), 'no-store'),
    },
    {
      path: `${base}/:uuid`,
      handler: (x) => sendRecord(x, name, () => positionOf(x, x.served.catalog.store(name)), publicCache(settings)),
    },
  ];
}
