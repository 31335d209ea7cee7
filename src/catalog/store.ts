import type { Family, FieldInfo } from './families.ts';
import type { FieldIndex, Scalar } from './field-index.ts';
import { pictureReferences } from './pictures/references.ts';
import { Positions } from './positions.ts';
import type { Direction, Order } from './order.ts';
import type { Postings } from './postings.ts';
import type { SearchIndex } from './search.ts';
import { StoreIndexes } from './store-indexes.ts';
import type { CatalogRecord, Translation } from './types.ts';

function valuesOf(value: unknown, field: FieldInfo): Scalar[] | undefined {
  if (value === undefined) return undefined;
  return field.list ? (value as Scalar[]) : [value as Scalar];
}

/**
 * The records of one family in file order, their translations, and their indexes (`StoreIndexes`, each built the
 * first time a query needs it). It answers lookups; the query pipeline (`query.ts`) combines them.
 *
 * @example
 * const store = new FamilyStore(family('episodes'), records, translations, ['en-US', 'pt-BR'], 'en-US');
 * store.index('season', 'pt-BR').get(seasonHref); // positions, ascending
 */
export class FamilyStore {
  private readonly positions: Positions;
  private readonly indexes = new StoreIndexes(this);
  private picturesNamed?: boolean;

  constructor(
    readonly family: Family,
    readonly records: readonly CatalogRecord[],
    /** Per language, the translation of each position (undefined where there is none). */
    private readonly translations: ReadonlyMap<string, readonly (Translation | undefined)[]>,
    readonly languages: readonly string[],
    readonly defaultLanguage: string,
    /** Each record's position by uuid, when the caller has it already (see `patched`). */
    positions?: Positions,
  ) {
    this.positions = positions ?? Positions.of(records);
  }

  /**
   * This store with `records` (by uuid) replaced, or added after the others, and translation
   * `rows` set (by language, then uuid; null removes one): what a write that removes no record
   * makes. Untouched records keep their place, and what did not change (the positions, a
   * record added aside; the translations of a language with no row set) is shared rather than
   * built again, so a write costs about the same on a family of any size. Indexes are built
   * again as queries need them.
   *
   * @example
   * const next = store.patched(
   *   new Map([[uuid, record]]),
   *   new Map([['pt-BR', new Map([[uuid, { title: 'Título' }]])]]),
   * );
   */
  patched(
    records: ReadonlyMap<string, CatalogRecord>,
    rows: ReadonlyMap<string, ReadonlyMap<string, Translation | null>>,
  ): FamilyStore {
    const list = this.records.slice();
    let positions = this.positions;
    for (const [uuid, record] of records) {
      const position = this.positions.get(uuid);
      if (position !== undefined) {
        list[position] = record;
        continue;
      }
      positions = positions.with(uuid, list.length);
      list.push(record);
    }
    const translations = new Map<string, readonly (Translation | undefined)[]>();
    for (const language of this.family.translation ? this.languages : []) {
      const column = this.translations.get(language) ?? [];
      const set = rows.get(language);
      // A column may end before the records added after it: their positions read undefined, no translation.
      if (!set) {
        translations.set(language, column);
        continue;
      }
      const next = column.slice();
      while (next.length < list.length) next.push(undefined);
      for (const [uuid, row] of set ?? []) {
        const position = positions.get(uuid);
        if (position !== undefined) next[position] = row ?? undefined;
      }
      translations.set(language, next);
    }
    const store = new FamilyStore(this.family, list, translations, this.languages, this.defaultLanguage, positions);
    if (positions === this.positions) this.indexes.passTo(store.indexes, records, rows.size > 0);
    const named = [...records.values()].some((record) => pictureReferences(record).length > 0);
    // Replacing records that named pictures may leave none: only then is the family looked through again.
    if (named || this.picturesNamed === false) store.picturesNamed = named || false;
    return store;
  }

  /** Whether a record names a picture this server serves (`/images/…`); looked for once, stopping at the first. */
  get namesPictures(): boolean {
    return (this.picturesNamed ??= this.records.some((record) => pictureReferences(record).length > 0));
  }

  get size(): number {
    return this.records.length;
  }

  /** File position of the record with this uuid. */
  position(uuid: string): number | undefined {
    return this.positions.get(uuid);
  }

  /** A uniformly random position, or undefined for an empty family. */
  randomPosition(): number | undefined {
    return this.size === 0 ? undefined : Math.floor(Math.random() * this.size);
  }

  /** The translated fields served for `position` in `language`, and the language they are in. */
  translation(position: number, language: string): { language: string; fields: Translation } {
    const own = this.translations.get(language)?.[position];
    if (own) return { language, fields: own };
    return { language: this.defaultLanguage, fields: this.translations.get(this.defaultLanguage)?.[position] ?? {} };
  }

  /** The translated fields `position` has in `language` itself (no fallback), if any. */
  ownTranslation(position: number, language: string): Translation | undefined {
    return this.translations.get(language)?.[position];
  }

  /** The languages `position` has a translation in, in catalog order. */
  languagesOf(position: number): string[] {
    return this.languages.filter((language) => this.translations.get(language)?.[position] !== undefined);
  }

  /** Every translation row of `position`, in catalog language order. */
  translationsOf(position: number): { language: string; fields: Translation }[] {
    return this.languagesOf(position).map((language) => ({
      language,
      fields: this.translations.get(language)![position]!,
    }));
  }

  /** The values of `field` that a reader of `language` sees at `position` (undefined: none). */
  values(position: number, field: string, language: string): Scalar[] | undefined {
    const info = this.family.fields.get(field)!;
    return valuesOf(
      info.translated ? this.translation(position, language).fields[field] : this.records[position]![field],
      info,
    );
  }

  /** The index of a filterable field (translated fields in the given language); see `StoreIndexes`. */
  index(field: string, language: string): FieldIndex {
    return this.indexes.index(field, language);
  }

  /** The search index of `language`; see `StoreIndexes`. */
  searchIndex(language: string): SearchIndex {
    return this.indexes.searchIndex(language);
  }

  /** Every position, ascending. */
  all(): Postings {
    return this.indexes.all();
  }

  /** The order of every position by `field`; see `StoreIndexes`. */
  sortOrder(field: string, direction: Direction, language: string): Order {
    return this.indexes.sortOrder(field, direction, language);
  }
}
