import type { Catalog } from '../catalog/catalog.ts';
import { ResponseCache } from './cached-response.ts';

/**
 * The catalog being served and the response cache of its version. `replace` swaps both in one
 * assignment, so a request sees either the old pair or the new one, never a mix.
 *
 * @example
 * const served = new ServedCatalog(catalog, 64 * 2 ** 20);
 * served.replace(reloaded); // the next request sees the new data and an empty cache
 */
export class ServedCatalog {
  current: { catalog: Catalog; cache: ResponseCache };

  constructor(
    catalog: Catalog,
    private readonly cacheBytes: number,
  ) {
    this.current = { catalog, cache: new ResponseCache(cacheBytes, catalog.version) };
  }

  replace(catalog: Catalog): void {
    this.current = { catalog, cache: new ResponseCache(this.cacheBytes, catalog.version) };
  }
}
