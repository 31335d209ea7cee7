import type { Catalog } from '../catalog/catalog.ts';
import { parseFamilyHref } from '../catalog/href.ts';
import type { FamilyStore } from '../catalog/store.ts';
import { present } from '../catalog/present.ts';

/**
 * One record as a GraphQL field sees it: where it is and the language it is served in. The
 * record's JSON is made once, the first time a field of it is read, by the same `present`
 * the REST routes serve; links carry the language on to the records they reach.
 */
export class ServedRecord {
  #json?: Record<string, unknown>;

  constructor(
    readonly catalog: Catalog,
    readonly store: FamilyStore,
    readonly position: number,
    readonly language: string,
    /** What the paths of the catalog's own pictures are made absolute with (see `pictureOrigin`). */
    readonly origin: string,
    /**
     * The records one request has reached so far, by family, position and language: each is presented once however
     * often it is linked.
     */
    private readonly reached: Map<string, ServedRecord> = new Map(),
  ) {}

  get json(): Record<string, unknown> {
    return (this.#json ??= present(this.store, this.position, this.language, this.origin));
  }

  /** The record an href of this one points to, or undefined when there is none. */
  follow(href: string): ServedRecord | undefined {
    const parsed = parseFamilyHref(href);
    if (!parsed) return undefined;
    const store = this.catalog.store(parsed.family);
    const position = store.position(parsed.uuid);
    if (position === undefined) return undefined;
    const key = `${parsed.family}/${position}/${this.language}`;
    let record = this.reached.get(key);
    if (!record)
      this.reached.set(
        key,
        (record = new ServedRecord(this.catalog, store, position, this.language, this.origin, this.reached)),
      );
    return record;
  }
}
