import { servedFields, type FamilyName } from '../catalog/families.ts';
import { listPage, type Shape } from '../catalog/list-request.ts';
import { shapeRecord } from '../catalog/shape.ts';
import type { FamilyStore } from '../catalog/store.ts';
import { CSV_TYPE, csvHead, csvRow } from './csv.ts';
import { publicCache } from './locate.ts';
import { pageHeaders } from './pagination.ts';
import { readListQuery } from './request-query.ts';
import type { ReadExchange, ReadSettings } from './types.ts';

/** Rows per chunk of a streamed list: a few tens of KB at a time. */
const ROWS_PER_CHUNK = 200;

/** A list's columns: the family's fields in the schema's order, only those `fields` keeps when it is given. */
export function csvColumns(store: FamilyStore, shape: Shape): string[] {
  const all = servedFields(store.family);
  if (!shape.fields) return all;
  const keep = new Set(['uuid', 'href', ...shape.fields]);
  return all.filter((name) => keep.has(name));
}

/**
 * `GET /api/v1/F` as CSV (see `listFormat`): the same filters, sort, search, paging and language
 * as JSON, one row per record. A page up to `maxPageSize` is built and cached as JSON pages are;
 * a larger one (CSV takes `size` up to `maxCsvRows`, for a whole list in one file) is sent as
 * it is made, a few hundred rows at a time, and never held whole.
 */
export function sendCsvList<Entry>(
  x: ReadExchange<Entry>,
  settings: ReadSettings,
  name: FamilyName,
  language: string,
  origin: string,
): void {
  const { catalog, cache } = x.served;
  const store = catalog.store(name);
  const query = readListQuery(x, store.family, settings.maxCsvRows);
  const page = () => {
    const found = listPage(store, query, language);
    const headers = pageHeaders(x, query, found.totalItems, found.positions.length);
    headers['Content-Type'] = CSV_TYPE;
    headers['Content-Disposition'] = `attachment; filename="${name}.csv"`;
    if (store.family.translation) headers['Content-Language'] = language;
    return { positions: found.positions, headers };
  };
  const columns = csvColumns(store, query.shape);
  const row = (position: number) =>
    csvRow(columns, shapeRecord(catalog, store, position, language, query.shape, origin));
  if (query.size <= settings.maxPageSize) {
    const entry = cache.get(`csv ${language} ${origin}${x.publicPath}?${x.querystring}`, () => {
      const { positions, headers } = page();
      let text = csvHead(columns);
      for (const position of positions) text += row(position);
      return { json: text, headers, cheap: positions.length === 0 };
    });
    x.send(entry, publicCache(settings));
    return;
  }
  const { positions, headers } = page();
  function* chunks(): Generator<string> {
    let text = csvHead(columns);
    for (let i = 0; i < positions.length; i++) {
      text += row(positions[i]!);
      if ((i + 1) % ROWS_PER_CHUNK === 0) {
        yield text;
        text = '';
      }
    }
    if (text) yield text;
  }
  x.stream(chunks(), headers, publicCache(settings));
}
