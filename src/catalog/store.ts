import type { Family, FieldInfo } from './families.ts';
import { FieldIndex, type Scalar } from './field-index.ts';
import { pictureReferences } from './pictures/references.ts';
import { Positions } from './positions.ts';
import { buildOrder, type Direction, type Order } from './order.ts';
import { universe, type Postings } from './postings.ts';
import { SearchIndex } from './search.ts';
import type { CatalogRecord, Translation } from './types.ts';

function valuesOf(value: unknown, field: FieldInfo): Scalar[] | undefined {
  if (value === undefined) return undefined;
  return field.list ? (value as Scalar[]) : [value as Scalar];
}

/**
 * The records of one family in file order and their indexes, each built the first time a
 * query needs it: one per filterable field, a search index per language, sort orders. Translated fields are
 * indexed per language on the value a reader of that language is served (their own
 * translation, else the default language's). It answers lookups; the query pipeline
 * (`query.ts`) combines them.
 *
 * @example
 * const store = new FamilyStore(family('episodes'), records, translations, ['en-US', 'pt-BR'], 'en-US');
 * store.index('season', 'pt-BR').get(seasonHref); // positions, ascending
 */
export class FamilyStore {
  private readonly positions: Positions;
  /** Field indexes by field (and language, for translated fields), built on first use. */
  private readonly indexes = new Map<string, FieldIndex>();
  /** Search indexes by language (untranslated families have one), built on first use. */
  private readonly searches = new Map<string, SearchIndex>();
  /** Sort orders by field, direction and collation; the data never changes under them. */
  private readonly orders = new Map<string, Order>();
  private uuidRanks?: Int32Array;
  private everything?: Postings;
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
    if (positions === this.positions) this.passIndexes(store, records, rows.size > 0);
    const named = [...records.values()].some((record) => pictureReferences(record).length > 0);
    // Replacing records that named pictures may leave none: only then is the family looked through again.
    if (named || this.picturesNamed === false) store.picturesNamed = named || false;
    return store;
  }

  /**
   * Hands `next` (this store with `records` replaced in place, none added) what it would build
   * alike: indexes, orders and searches of fields those records keep (translated ones when no
   * translation changed), uuid ranks, the universe. A write's checks and the next reads use them.
   */
  private passIndexes(next: FamilyStore, records: ReadonlyMap<string, CatalogRecord>, translated: boolean): void {
    const kept = (field: string): boolean => {
      const info = this.family.fields.get(field);
      if (!info) return false;
      if (info.translated) return !translated;
      for (const [uuid, record] of records) {
        const before = this.records[this.positions.get(uuid)!]![field];
        if (before !== record[field] && JSON.stringify(before) !== JSON.stringify(record[field])) return false;
      }
      return true;
    };
    const fieldOf = (key: string) => key.split(' ')[0]!;
    for (const [key, index] of this.indexes) if (kept(fieldOf(key))) next.indexes.set(key, index);
    for (const [key, order] of this.orders) if (kept(fieldOf(key))) next.orders.set(key, order);
    const text = [...this.family.fields.values()].filter((info) => info.text);
    if (text.every((info) => kept(info.name)))
      for (const [key, search] of this.searches) next.searches.set(key, search);
    next.uuidRanks = this.uuidRanks;
    next.everything = this.everything;
  }

  /**
   * The search index of `language` (untranslated families have one for every language),
   * built on the first search: a catalog nobody searches never pays for it.
   */
  searchIndex(language: string): SearchIndex {
    const text = [...this.family.fields.values()].filter((f) => f.text);
    const key = text.some((f) => f.translated) && this.languages.includes(language) ? language : this.defaultLanguage;
    let index = this.searches.get(key);
    if (!index) {
      const valueOf = (position: number, field: string) =>
        this.family.fields.get(field)!.translated
          ? this.translation(position, key).fields[field]
          : this.records[position]![field];
      index = SearchIndex.build(text, valueOf, this.records.length);
      this.searches.set(key, index);
    }
    return index;
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

  /**
   * The index of a filterable field (translated fields in the given language), built on the
   * first filter or sort that needs it.
   */
  index(field: string, language: string): FieldIndex {
    const info = this.family.fields.get(field)!;
    const key =
      info.translated && this.languages.includes(language)
        ? `${field} ${language}`
        : info.translated
          ? `${field} ${this.defaultLanguage}`
          : field;
    let index = this.indexes.get(key);
    if (!index) {
      const served = key.slice(field.length + 1);
      const values = info.translated
        ? this.records.map((_, p) => this.translation(p, served).fields[field] as Scalar | Scalar[] | undefined)
        : this.records.map((r) => r[field] as Scalar | Scalar[] | undefined);
      index = FieldIndex.build(values);
      this.indexes.set(key, index);
    }
    return index;
  }

  /** Every position, ascending. */
  all(): Postings {
    return (this.everything ??= universe(this.size));
  }

  /**
   * The order of every position by `field` (strings collated in `language` when the field
   * is translated, else in the default language); built on first use and kept.
   */
  sortOrder(field: string, direction: Direction, language: string): Order {
    const info = this.family.fields.get(field)!;
    const collation = info.translated ? language : this.defaultLanguage;
    const key = `${field} ${direction} ${info.kind === 'string' ? collation : ''}`;
    let found = this.orders.get(key);
    if (!found) {
      const collator = info.kind === 'string' ? new Intl.Collator(collation) : undefined;
      found = buildOrder(this.index(field, language).groups(), this.uuidRank(), this.size, direction, collator);
      this.orders.set(key, found);
    }
    return found;
  }

  /** Each position's place among the records sorted by uuid: the tie-break of every sort. */
  private uuidRank(): Int32Array {
    if (!this.uuidRanks) {
      const records = this.records;
      const sorted = records.map((_, p) => p).sort((a, b) => (records[a]!.uuid < records[b]!.uuid ? -1 : 1));
      this.uuidRanks = new Int32Array(records.length);
      sorted.forEach((p, i) => (this.uuidRanks![p] = i));
    }
    return this.uuidRanks;
  }
}
