import type { Family } from './families.ts';
import { FieldIndex, type Scalar } from './field-index.ts';
import { buildOrder, type Direction, type Order } from './order.ts';
import { universe, type Postings } from './postings.ts';
import { SearchIndex } from './search.ts';
import type { CatalogRecord, Translation } from './types.ts';

/** What the indexes are built from: a family's records in file order and what each language reads. */
export interface IndexedRecords {
  readonly family: Family;
  readonly records: readonly CatalogRecord[];
  readonly languages: readonly string[];
  readonly defaultLanguage: string;
  readonly size: number;
  position(uuid: string): number | undefined;
  translation(position: number, language: string): { language: string; fields: Translation };
}

/**
 * The indexes of one family's records, each built the first time a query needs it: one per
 * filterable field, a search index per language, sort orders. Translated fields are indexed
 * per language on the value a reader of that language is served (their own translation, else
 * the default language's).
 *
 * @example
 * const indexes = new StoreIndexes(store);
 * indexes.index('season', 'pt-BR').get(seasonHref); // positions, ascending
 */
export class StoreIndexes {
  /** Field indexes by field (and language, for translated fields). */
  private readonly fields = new Map<string, FieldIndex>();
  /** Search indexes by language (untranslated families have one). */
  private readonly searches = new Map<string, SearchIndex>();
  /** Sort orders by field, direction and collation; the data never changes under them. */
  private readonly orders = new Map<string, Order>();
  private uuidRanks?: Int32Array;
  private everything?: Postings;

  constructor(private readonly of: IndexedRecords) {}

  /**
   * Hands `next` (the indexes of these records with `records` replaced in place, none added)
   * what it would build alike: indexes, orders and searches of fields those records keep
   * (translated ones when no translation changed), uuid ranks, the universe.
   */
  passTo(next: StoreIndexes, records: ReadonlyMap<string, CatalogRecord>, translated: boolean): void {
    const { family } = this.of;
    const kept = (field: string): boolean => {
      const info = family.fields.get(field);
      if (!info) return false;
      if (info.translated) return !translated;
      for (const [uuid, record] of records) {
        const was = this.of.records[this.of.position(uuid)!]![field];
        if (was !== record[field] && JSON.stringify(was) !== JSON.stringify(record[field])) return false;
      }
      return true;
    };
    const fieldOf = (key: string) => key.split(' ')[0]!;
    for (const [key, index] of this.fields) if (kept(fieldOf(key))) next.fields.set(key, index);
    for (const [key, order] of this.orders) if (kept(fieldOf(key))) next.orders.set(key, order);
    const text = [...family.fields.values()].filter((info) => info.text);
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
    const text = [...this.of.family.fields.values()].filter((f) => f.text);
    const key =
      text.some((f) => f.translated) && this.of.languages.includes(language) ? language : this.of.defaultLanguage;
    let index = this.searches.get(key);
    if (!index) {
      const valueOf = (position: number, field: string) =>
        this.of.family.fields.get(field)!.translated
          ? this.of.translation(position, key).fields[field]
          : this.of.records[position]![field];
      index = SearchIndex.build(text, valueOf, this.of.records.length);
      this.searches.set(key, index);
    }
    return index;
  }

  /**
   * The index of a filterable field (translated fields in the given language), built on the
   * first filter or sort that needs it.
   */
  index(field: string, language: string): FieldIndex {
    const info = this.of.family.fields.get(field)!;
    const key =
      info.translated && this.of.languages.includes(language)
        ? `${field} ${language}`
        : info.translated
          ? `${field} ${this.of.defaultLanguage}`
          : field;
    let index = this.fields.get(key);
    if (!index) {
      const served = key.slice(field.length + 1);
      const values = info.translated
        ? this.of.records.map((_, p) => this.of.translation(p, served).fields[field] as Scalar | Scalar[] | undefined)
        : this.of.records.map((r) => r[field] as Scalar | Scalar[] | undefined);
      index = FieldIndex.build(values);
      this.fields.set(key, index);
    }
    return index;
  }

  /** Every position, ascending. */
  all(): Postings {
    return (this.everything ??= universe(this.of.size));
  }

  /**
   * The order of every position by `field` (strings collated in `language` when the field
   * is translated, else in the default language); built on first use and kept.
   */
  sortOrder(field: string, direction: Direction, language: string): Order {
    const info = this.of.family.fields.get(field)!;
    const collation = info.translated ? language : this.of.defaultLanguage;
    const key = `${field} ${direction} ${info.kind === 'string' ? collation : ''}`;
    let found = this.orders.get(key);
    if (!found) {
      const collator = info.kind === 'string' ? new Intl.Collator(collation) : undefined;
      found = buildOrder(this.index(field, language).groups(), this.uuidRank(), this.of.size, direction, collator);
      this.orders.set(key, found);
    }
    return found;
  }

  /** Each position's place among the records sorted by uuid: the tie-break of every sort. */
  uuidRank(): Int32Array {
    if (!this.uuidRanks) {
      const records = this.of.records;
      const sorted = records.map((_, p) => p).sort((a, b) => (records[a]!.uuid < records[b]!.uuid ? -1 : 1));
      this.uuidRanks = new Int32Array(records.length);
      sorted.forEach((p, i) => (this.uuidRanks![p] = i));
    }
    return this.uuidRanks;
  }
}
