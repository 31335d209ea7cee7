import type { Family, FieldInfo } from './families.ts';
import { FieldIndex, type Scalar } from './field-index.ts';
import { evaluate, type Condition } from './query.ts';
import { SearchIndex } from './search.ts';
import { SortOrders, type Direction } from './sort.ts';
import { intersect, type Postings } from './postings.ts';
import type { CatalogRecord, Translation } from './types.ts';

function valuesOf(value: unknown, field: FieldInfo): Scalar[] | undefined {
  if (value === undefined) return undefined;
  return field.list ? (value as Scalar[]) : [value as Scalar];
}

/**
 * The records of one family in file order, with an index per filterable field. Translated
 * fields are indexed per language on the value a reader of that language is served (their
 * own translation, else the default language's).
 *
 * @example
 * const store = new FamilyStore(family('episodes'), records, translations, ['en-US', 'pt-BR'], 'en-US');
 * store.query([{ field: 'season', op: 'eq', value: seasonHref }], 'pt-BR'); // positions, ascending
 */
export class FamilyStore {
  private readonly positions = new Map<string, number>();
  private readonly indexes = new Map<string, FieldIndex>();
  private readonly translated = new Map<string, Map<string, FieldIndex>>();
  private readonly sortOrders: SortOrders;
  /** One search index per language (untranslated families share one). */
  private readonly searches = new Map<string, SearchIndex>();

  constructor(
    readonly family: Family,
    readonly records: readonly CatalogRecord[],
    /** Per language, the translation of each position (undefined where there is none). */
    private readonly translations: ReadonlyMap<string, readonly (Translation | undefined)[]>,
    readonly languages: readonly string[],
    readonly defaultLanguage: string,
  ) {
    records.forEach((record, position) => this.positions.set(record.uuid, position));
    for (const field of family.fields.values()) {
      if (!field.translated) {
        this.indexes.set(field.name, FieldIndex.build(records.map((r) => r[field.name] as Scalar | Scalar[] | undefined)));
        continue;
      }
      const perLanguage = new Map<string, FieldIndex>();
      for (const language of languages) {
        const values = records.map((_, p) => this.translation(p, language).fields[field.name] as Scalar | Scalar[] | undefined);
        perLanguage.set(language, FieldIndex.build(values));
      }
      this.translated.set(field.name, perLanguage);
    }
    this.sortOrders = new SortOrders(this);
    const text = [...family.fields.values()].filter((f) => f.text);
    const translated = text.some((f) => f.translated);
    const known = new Map<string, string[]>();
    for (const language of translated ? languages : [defaultLanguage]) {
      const valueOf = (position: number, field: string) =>
        family.fields.get(field)!.translated ? this.translation(position, language).fields[field] : records[position]![field];
      this.searches.set(language, SearchIndex.build(text, valueOf, records.length, known));
    }
  }

  private searchIndex(language: string): SearchIndex {
    return this.searches.get(language) ?? this.searches.get(this.defaultLanguage)!;
  }

  /** Positions (ascending) whose text, in `language`, has a word starting with each of `query`'s. */
  search(query: readonly string[], language: string): Postings {
    return this.searchIndex(language).match(query);
  }

  /** Search hits in rank order: more query words in names and titles first, then file order. */
  rank(positions: Postings, query: readonly string[], language: string): Postings {
    return this.searchIndex(language).ranked(positions, query);
  }

  /** Rough bytes of the search indexes, for the boot summary. */
  searchBytes(): number {
    let bytes = 0;
    for (const index of this.searches.values()) bytes += index.approximateBytes();
    return bytes;
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

  /** The languages `position` has a translation in, in catalog order. */
  languagesOf(position: number): string[] {
    return this.languages.filter((language) => this.translations.get(language)?.[position] !== undefined);
  }

  /** Every translation row of `position`, in catalog language order. */
  translationsOf(position: number): { language: string; fields: Translation }[] {
    return this.languagesOf(position).map((language) => ({ language, fields: this.translations.get(language)![position]! }));
  }

  /** The values of `field` that a reader of `language` sees at `position` (undefined: none). */
  values(position: number, field: string, language: string): Scalar[] | undefined {
    const info = this.family.fields.get(field)!;
    return valuesOf(info.translated ? this.translation(position, language).fields[field] : this.records[position]![field], info);
  }

  /** The index of a filterable field; translated fields in the given language. */
  index(field: string, language: string): FieldIndex {
    return this.translated.get(field)?.get(language) ?? this.indexes.get(field)!;
  }

  /** Positions (ascending) matching every condition; all positions when there are none. */
  query(conditions: readonly Condition[], language: string): Postings {
    return evaluate(this, conditions, language);
  }

  /**
   * The records a list asks for, in the order it is served: matching every condition and
   * every search word, then sorted by the field asked for, else ranked when searching, else
   * in file order.
   *
   * @example
   * store.list({ conditions: [], search: ['sao'], sort: { field: 'name', direction: 'asc' } }, 'pt-BR');
   */
  list(request: { conditions: readonly Condition[]; search?: readonly string[]; sort?: { field: string; direction: Direction } }, language: string): Postings {
    let positions = this.query(request.conditions, language);
    if (request.search) positions = intersect(positions, this.search(request.search, language));
    if (request.sort) return this.sort(positions, request.sort.field, request.sort.direction, language);
    return request.search ? this.rank(positions, request.search, language) : positions;
  }

  /** `positions` reordered by `field`: ties by uuid, records lacking the field last. */
  sort(positions: Postings, field: string, direction: Direction, language: string): Postings {
    return this.sortOrders.sort(positions, field, direction, language);
  }
}
