import type { Catalog } from '../catalog/catalog.ts';
import type { ChangeFeed } from '../changes/feed.ts';
import type { ServedCatalog } from './served-catalog.ts';

/**
 * Serves `catalog` (data/ loaded with no curator, so no overlay to number changes in) as one
 * change of `feed`, numbered in this process alone: cursors then hold only on this instance
 * while it runs (a restart answers them 410).
 *
 * @example
 * serveLoaded(served, feed, catalog); // boot, and each reload under `npm run dev`
 */
export function serveLoaded(served: ServedCatalog, feed: ChangeFeed, catalog: Catalog): void {
  feed.loaded(catalog.version);
  served.replace(catalog, feed.version());
  feed.notify();
}
