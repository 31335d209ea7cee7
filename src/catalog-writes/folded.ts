import type { Catalog } from '../catalog/catalog.ts';
import { replayWrites, type KeptWrite, type Replayed } from '../catalog/edit/replay.ts';
import { loadCatalog } from '../catalog/load.ts';
import { formatProblem } from '../catalog/problems.ts';
import type { Logger } from '../config/logger.ts';
import type { StoreOptions } from '../lib/stores.ts';
import { openOverlay } from './open.ts';
import { isMark, type OverlayStore } from './store.ts';

/** A data directory with the curators' writes replayed over it, as the server serves them. */
export interface Folded {
  /** The catalog of the data files alone. */
  base: Catalog;
  overlay: OverlayStore;
  /** The writes kept, marks (new data, in the change feed) left out. */
  writes: KeptWrite[];
  /** The number of the last write kept, marks included: what an export folds through. */
  last: number;
  replayed: Replayed;
}

/**
 * Loads `dir` and replays the writes kept in the overlay over it (what `npm run catalog` lists
 * and exports, and what a static site is made from). Rejects with a message naming what could
 * not be loaded or opened.
 *
 * @example
 * const { replayed } = await foldedCatalog('data', 'en-US', store, 'var/catalog-overlay.json', log);
 */
export async function foldedCatalog(
  dir: string,
  defaultLanguage: string,
  store: StoreOptions,
  overlayPath: string,
  log: Logger,
): Promise<Folded> {
  const loaded = await loadCatalog(dir, { defaultLanguage });
  if (!loaded.ok)
    throw new Error(
      `${dir} cannot be loaded; fix it first (npm run check-data):\n${loaded.problems.map(formatProblem).join('\n')}`,
    );
  const overlay = await openOverlay(store, overlayPath, log).catch((error: Error) => {
    throw new Error(`cannot open the catalog overlay: ${error.message}`);
  });
  const kept = await overlay.since(0);
  const writes = kept.filter((write) => !isMark(write));
  const last = kept.at(-1)?.seq ?? 0;
  return { base: loaded.catalog, overlay, writes, last, replayed: replayWrites(loaded.catalog, writes, 'export') };
}
