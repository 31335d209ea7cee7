import type { Catalog } from '../catalog/catalog.ts';
import { HttpError } from '../lib/http-error.ts';
import { ResponseCache } from './cached-response.ts';
import { ServedPictures } from './pictures.ts';

/** One catalog version as served: its data, its response cache and its pictures by path. */
export interface Served {
  catalog: Catalog;
  cache: ResponseCache;
  pictures: ServedPictures;
}

/**
 * The catalog being served, the response cache of its version and its pictures. `replace`
 * swaps them in one assignment, so a request sees either the old set or the new one, never a mix. Under
 * `npm run dev` the server may start before its data is good: until the first good catalog,
 * reading `current` throws the 503 every catalog request answers.
 *
 * @example
 * const served = new ServedCatalog(catalog, 64 * 2 ** 20);
 * served.replace(reloaded); // the next request sees the new data and an empty cache
 */
export class ServedCatalog {
  #current?: Served;

  constructor(
    catalog: Catalog | undefined,
    private readonly cacheBytes: number,
  ) {
    if (catalog) this.replace(catalog);
  }

  /** Whether a catalog is served (false only while `npm run dev` waits for good data). */
  get ready(): boolean {
    return this.#current !== undefined;
  }

  get current(): Served {
    if (!this.#current) {
      throw new HttpError(
        503,
        'No catalog is served yet: the data has problems (the server log lists them); it is served as soon as they are fixed',
        { 'Retry-After': '2' },
      );
    }
    return this.#current;
  }

  replace(catalog: Catalog): void {
    this.#current = {
      catalog,
      cache: new ResponseCache(this.cacheBytes, catalog.version),
      pictures: new ServedPictures(catalog),
    };
  }
}
