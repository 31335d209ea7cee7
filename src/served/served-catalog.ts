import { AsyncLocalStorage } from 'node:async_hooks';
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

/** `catalog` ready to serve, with an empty response cache of `cacheBytes` (following `previous`'s, see `ResponseCache`). */
export function servedOf(catalog: Catalog, cacheBytes: number, previous?: Served): Served {
  return {
    catalog,
    cache: new ResponseCache(cacheBytes, catalog.version, previous?.cache),
    pictures: new ServedPictures(catalog),
  };
}

/** What one request sees instead of the shared catalog (a sandbox's view), asked each time it reads; undefined: the shared one. */
export type View = () => Served | undefined;

/**
 * The catalog being served, the response cache of its version and its pictures. `replace`
 * swaps them in one assignment, so a request sees either the old set or the new one, never a mix. Under
 * `npm run dev` the server may start before its data is good: until the first good catalog,
 * reading `current` throws the 503 every catalog request answers. Code run `within` a view
 * (a classroom sandbox) reads that view as `current`; `shared` is always everyone's.
 *
 * @example
 * const served = new ServedCatalog(catalog, 64 * 2 ** 20);
 * served.replace(reloaded); // the next request sees the new data and an empty cache
 */
export class ServedCatalog {
  #current?: Served;
  readonly #views = new AsyncLocalStorage<View>();
  /** Tasks running `within` a view now; the storage is turned off whenever none is. */
  #inside = 0;

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

  /** What the code running now reads: its view's catalog `within` one that has it, else the shared one. */
  get current(): Served {
    return this.#views.getStore()?.() ?? this.shared;
  }

  /** The catalog every client without a sandbox reads. */
  get shared(): Served {
    if (!this.#current) {
      throw new HttpError(
        503,
        'No catalog is served yet: the data has problems (the server log lists them); it is served as soon as they are fixed',
        { 'Retry-After': '2' },
      );
    }
    return this.#current;
  }

  /**
   * Runs `task` (one request) with `current` reading `view` whenever it gives a catalog. Once
   * no task is within a view any more, the storage is turned off (`disable`): on Node 20 and
   * 22 an AsyncLocalStorage in use hooks every promise and every native async resource the
   * process makes, a socket's writes included, and that cost fell on every request, anonymous
   * reads on the fast path too (about 10 % more CPU a read by uuid; `npm run bench:classroom`).
   * The next `within` turns it on again.
   */
  async within<T>(view: View, task: () => Promise<T>): Promise<T> {
    this.#inside++;
    try {
      return await this.#views.run(view, task);
    } finally {
      if (--this.#inside === 0) this.#views.disable();
    }
  }

  replace(catalog: Catalog): void {
    this.#current = servedOf(catalog, this.cacheBytes, this.#current);
  }
}
