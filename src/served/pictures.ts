import { LRUCache } from 'lru-cache';
import type { Catalog } from '../catalog/catalog.ts';
import { pictureAt } from '../catalog/pictures/picture-source.ts';
import { pictureHeaders } from '../reads/pictures.ts';
import { CachedResponse } from './cached-response.ts';

/**
 * Memory for the pictures of one catalog version, compressed variants included: the embedded
 * catalog's 272 take about 1 MB, so each is drawn once; a generated catalog of millions keeps
 * the pictures asked last.
 */
export const PICTURE_CACHE_BYTES = 8 * 2 ** 20;

/**
 * The pictures of one catalog version as cached answers keyed by path: the exact media type,
 * `nosniff`, the policy above and a strong ETag named by the bytes. A picture is drawn (or its
 * file's answer made) on its first request and kept, with its compressed variants, while the
 * cache's memory allows.
 *
 * @example
 * new ServedPictures(catalog).get('/images/actors/4498….svg'); // a CachedResponse of image/svg+xml
 */
export class ServedPictures {
  private readonly entries = new LRUCache<string, CachedResponse>({
    maxSize: PICTURE_CACHE_BYTES,
    sizeCalculation: (entry) => entry.size,
  });

  constructor(private readonly catalog: Catalog) {}

  /** The answer for the picture at `path`, made on a miss; undefined when the catalog names none there. */
  get(path: string): CachedResponse | undefined {
    const kept = this.entries.get(path);
    if (kept) return kept;
    const found = pictureAt(this.catalog, path);
    if (!found) return undefined;
    const headers = pictureHeaders(found.type);
    // A new compressed variant makes the entry bigger: set again so the budget sees it.
    const entry = new CachedResponse(path, found.bytes, headers, found.etag, (grown) =>
      this.entries.set(grown.key, grown),
    );
    this.entries.set(path, entry);
    return entry;
  }

  /** The answer for `path` if it is still kept; never draws. */
  peek(path: string): CachedResponse | undefined {
    return this.entries.get(path);
  }
}
