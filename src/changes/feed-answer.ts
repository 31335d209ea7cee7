import type { Catalog } from '../catalog/catalog.ts';
import type { ChangeFeed } from './feed.ts';
import type { FeedQuery } from './feed-query.ts';
import type { FeedPage } from './page.ts';
import { recordNow } from './records.ts';
import type { Change, FeedWrite } from './types.ts';

/**
 * Who reads the feed: the catalog they read (for `include=records`), their own sandbox writes, and their pictures'
 * origin.
 */
export interface FeedReader {
  catalog: Catalog;
  own: readonly FeedWrite[];
  origin: string;
}

/** Whether `change` is one of the families `query` asks for (every change when it names none). */
export const keptBy =
  (query: Pick<FeedQuery, 'families'>) =>
  (change: Change): boolean =>
    !query.families || (change.family !== undefined && query.families.has(change.family));

/** The changes of `page` as sent: with the record each names as served now, when asked. */
export function listed(page: FeedPage, query: FeedQuery, reader: FeedReader): FeedPage['changes'] {
  if (!query.records) return page.changes;
  return page.changes.map((change) => {
    const record = recordNow(change, reader.catalog, query.language, reader.origin);
    return record === undefined ? change : { ...change, record };
  });
}

/** The query string of the page after `last`, with the reader's other parameters. */
function nextQuery(query: FeedQuery, last: string): string {
  const params = new URLSearchParams({ since: last, limit: String(query.limit) });
  if (query.families) params.set('family', [...query.families].join(','));
  if (query.records) params.set('include', 'records');
  params.set('language', query.language);
  return params.toString();
}

/**
 * The page `query` asks of `feed` for a reader with sandbox changes `own`, and the data version
 * now (the reader's). Throws the 400 or 410 of a cursor that is not one or cannot be resumed.
 *
 * @example
 * readFeed(feed, [], { since: 'now', limit: 100, records: false, language: 'en-US' });
 * // { page: { changes: [], … }, version: '…' }
 */
export function readFeed(
  feed: ChangeFeed,
  own: readonly FeedWrite[],
  query: FeedQuery,
  source?: string,
): { page: FeedPage; version: string } {
  const cursor = feed.cursorOf(query.since, own, source);
  return { page: feed.page(cursor, query.limit, own, keptBy(query)), version: feed.version(own.at(-1)?.seq ?? 0) };
}

/**
 * One page of `GET /api/v1/changes` for `reader`: the JSON text (`changes`, `last`, `more`,
 * and the `version` now) and, while more remain, the `Link` to the next page under `path`.
 * Throws the 400 or 410 of a cursor that is not one or cannot be resumed.
 *
 * @example
 * feedAnswer(feed, reader, readFeedQuery(query, catalog, () => false), '/api/v1/changes');
 * // { json: '{"changes":[…],"last":"…","more":false,"version":"…"}' }
 */
export function feedAnswer(
  feed: ChangeFeed,
  reader: FeedReader,
  query: FeedQuery,
  path: string,
): { json: string; link?: string } {
  const { page, version } = readFeed(feed, reader.own, query);
  const json = JSON.stringify({ changes: listed(page, query, reader), last: page.last, more: page.more, version });
  return page.more ? { json, link: `<${path}?${nextQuery(query, page.last)}>; rel="next"` } : { json };
}
