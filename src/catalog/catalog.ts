import type { FamilyName } from './families.ts';
import type { FamilyStore } from './store.ts';
import type { CatalogRecord } from './types.ts';

/**
 * A loaded, validated catalog: one store per family, the languages it speaks and a version
 * that changes whenever any data file's bytes change (each version is served with a response
 * cache of its own; ETags are hashes of the answers, not of this version).
 */
export class Catalog {
  constructor(
    readonly stores: ReadonlyMap<FamilyName, FamilyStore>,
    readonly languages: readonly string[],
    readonly defaultLanguage: string,
    readonly version: string,
    /** The picture files under the data directory's `images/`, by path (`/images/…`). */
    readonly pictureFiles: ReadonlyMap<string, Buffer> = new Map(),
  ) {}

  store(name: FamilyName): FamilyStore {
    return this.stores.get(name)!;
  }

  /** The single overview record. */
  get overview(): CatalogRecord {
    return this.store('overview').records[0]!;
  }

  /**
   * Whether a record names a picture this server serves. Asked by every answer (see
   * `pictureOrigin`), so it never draws them: a write's catalog shares the stores it does not
   * touch, and with them what they found.
   */
  get namesPictures(): boolean {
    for (const store of this.stores.values()) if (store.namesPictures) return true;
    return false;
  }

  /** Records per family, overview excluded: the overview's `data_count`. */
  counts(): Record<Exclude<FamilyName, 'overview'>, number> {
    const counts: Record<string, number> = {};
    for (const [name, store] of this.stores) if (name !== 'overview') counts[name] = store.size;
    return counts as Record<Exclude<FamilyName, 'overview'>, number>;
  }

  /** Total records across families, overview included. */
  get recordCount(): number {
    let total = 0;
    for (const store of this.stores.values()) total += store.size;
    return total;
  }
}
