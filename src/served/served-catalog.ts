import type { Catalog } from '../catalog/catalog.ts';
import { HttpError } from '../lib/http-error.ts';
import { ResponseCache } from './cached-response.ts';
import { ServedPictures } from './pictures.ts';

/** One catalog version as served: its data, its response cache and its pictures by path. */
export interface Served {
  catalog: Catalog;
  /**
   * The data version: the change feed's cursor after the last change this catalog holds (the `Catalog-Version` header).
   */
  version: string;
  cache: ResponseCache;
  pictures: ServedPictures;
}

/**
 * `catalog` ready to serve as `version`, with an empty response cache of `cacheBytes` (following `previous`'s, see
 * `ResponseCache`).
 */
export function servedOf(catalog: Catalog, version: string, cacheBytes: number, previous?: Served): Served {
  return {
    catalog,
    version,
    // Named by both: the fast path replays an answer (its Catalog-Version included) only while both hold.
    cache: new ResponseCache(cacheBytes, `${catalog.version} ${version}`, previous?.cache),
    pictures: new ServedPictures(catalog),
  };
}

/**
 * What one caller sees instead of the shared catalog (a classroom sandbox's view), asked each
 * time it reads: a write of its own between two reads shows in the second. Undefined: the shared one.
 */
export type View = () => Served | undefined;

/**
 * The catalog being served, the response cache of its version and its pictures. `replace`
 * swaps them in one assignment, so a request sees either the old set or the new one, never a mix. Under
 * `npm run dev` the server may start before its data is good: until the first good catalog,
 * reading `shared` throws the 503 every catalog request answers. A caller with a view of
 * its own (a classroom sandbox) reads `seenBy(view)`: the request carries it, so nothing
 * needs to follow the request through its awaits.
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
    version = '',
  ) {
    if (catalog) this.replace(catalog, version);
  }

  /** Whether a catalog is served (false only while `npm run dev` waits for good data). */
  get ready(): boolean {
    return this.#current !== undefined;
  }

  /** What a caller with `view` reads: the view's catalog when it gives one, else the shared one. */
  seenBy(view: View | undefined): Served {
    return view?.() ?? this.shared;
  }

  /** The catalog every client without a sandbox reads. */
  get shared(): Served {
    if (!this.#current) {
      throw new HttpError(
        503,
        'No catalog is served yet: the data has problems (the server log lists them); it is served as soon as ' +
          'they are fixed',
        { 'Retry-After': '2' },
      );
    }
    return this.#current;
  }

  /** Serves `catalog` as data version `version` from the next request on. */
  replace(catalog: Catalog, version: string): void {
    this.#current = servedOf(catalog, version, this.cacheBytes, this.#current);
  }
}
