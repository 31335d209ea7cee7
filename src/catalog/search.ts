import type { FieldInfo } from './families.ts';
import { FieldIndexBuilder, type FieldIndex } from './field-index.ts';
import { intersect, type Postings } from './postings.ts';

/** Fields whose matches rank first: what a record is called. */
const PRIMARY = new Set(['name', 'title', 'first_name', 'last_name', 'nicknames']);

/**
 * The words of a text as search compares them: accents removed, lower case, split on
 * anything that is not a letter or a digit.
 *
 * @example
 * words('São Paulo, 1979!'); // ['sao', 'paulo', '1979']
 */
export function words(text: string): string[] {
  // Plain ASCII has no accents to take off and only ASCII letters and digits: a cheaper split.
  const split = /^[\x00-\x7f]*$/.test(text)
    ? text.toLowerCase().split(/[^a-z0-9]+/)
    : text
        .normalize('NFD')
        .replace(/\p{M}+/gu, '')
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u);
  return split.filter((word) => word.length > 0);
}

/**
 * An inverted index of a family's text fields in one language: every word of every text
 * field, and apart those of its names and titles (which rank first). Each query word matches
 * as a prefix, so `wil` finds `Willow`; a record must match every word.
 *
 * @example
 * const index = SearchIndex.build(fields, (position, field) => valueOf(position, field), size);
 * index.ranked(index.match(['sao', 'bra'])!, ['sao', 'bra']); // positions, names first
 */
export class SearchIndex {
  private constructor(
    private readonly all: FieldIndex,
    private readonly primary: FieldIndex,
  ) {}

  /** Indexes `size` records whose text `fields` are read through `valueOf`. */
  static build(
    fields: readonly FieldInfo[],
    valueOf: (position: number, field: string) => unknown,
    size: number,
    known = new Map<string, string[]>(),
  ): SearchIndex {
    // `known` remembers the words of each text, shared between the languages of a family:
    // records without a translation repeat the default language's text.
    const tokens = (text: string) => {
      let found = known.get(text);
      if (!found) known.set(text, (found = words(text)));
      return found;
    };
    const all = new FieldIndexBuilder();
    const primary = new FieldIndexBuilder();
    for (let position = 0; position < size; position++) {
      for (const field of fields) {
        const value = valueOf(position, field.name);
        if (value === undefined) continue;
        const named = PRIMARY.has(field.name);
        for (const text of Array.isArray(value) ? value : [value]) {
          for (const word of tokens(String(text))) {
            all.add(word, position);
            if (named) primary.add(word, position);
          }
        }
      }
    }
    return new SearchIndex(all.build(), primary.build());
  }

  /** Positions (ascending) matching every word; rarest word first so the work follows the answer. */
  match(query: readonly string[]): Postings {
    const lists = query.map((word) => this.all.prefix(word)).sort((a, b) => a.length - b.length);
    return lists.reduce((acc, list) => (acc.length === 0 ? acc : intersect(acc, list)));
  }

  /**
   * `positions` (ascending) in rank order: more query words found in names and titles first,
   * then file order. Linear: a merge walk per word, then one pass per score.
   */
  ranked(positions: Postings, query: readonly string[]): Postings {
    const scores = new Uint8Array(positions.length);
    for (const word of query) {
      const named = this.primary.prefix(word);
      for (let i = 0, j = 0; i < positions.length && j < named.length; i++) {
        while (j < named.length && named[j]! < positions[i]!) j++;
        if (named[j] === positions[i]) scores[i]!++;
      }
    }
    const out = new Int32Array(positions.length);
    let w = 0;
    for (let score = query.length; score >= 0; score--) {
      for (let i = 0; i < positions.length; i++) if (scores[i] === score) out[w++] = positions[i]!;
    }
    return out;
  }
}
