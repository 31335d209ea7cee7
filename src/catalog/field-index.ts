import { EMPTY, intersect, union, type Postings } from './postings.ts';

export type Scalar = string | number;

/** Bounds of a range condition; an absent bound is open. */
export interface Range {
  min?: Scalar;
  max?: Scalar;
  minInclusive?: boolean;
  maxInclusive?: boolean;
}

function compareKeys(a: Scalar, b: Scalar): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * An inverted index of one field: each distinct value with the sorted positions holding it.
 * List fields index every element. Keys are kept sorted (numbers numerically, strings by code
 * unit, which orders ISO dates chronologically), so range conditions are a binary search.
 *
 * @example
 * const index = FieldIndex.build([['a'], ['b', 'a'], []]);
 * index.get('a'); // Int32Array [0, 1]
 */
export class FieldIndex {
  private lowerKeys?: string[];

  private constructor(
    readonly keys: Scalar[],
    private readonly postings: (number | Postings)[],
    private readonly slots: Map<Scalar, number>,
  ) {}

  /** Builds from each position's values (`undefined` or `[]` when the record lacks the field). */
  static build(valuesByPosition: ReadonlyArray<readonly Scalar[] | undefined>): FieldIndex {
    // A single position stays a plain number: most values of large families are unique.
    const found = new Map<Scalar, number | number[]>();
    valuesByPosition.forEach((values, position) => {
      for (const value of values ?? []) {
        const seen = found.get(value);
        if (seen === undefined) found.set(value, position);
        else if (typeof seen === 'number') {
          if (seen !== position) found.set(value, [seen, position]);
        } else if (seen[seen.length - 1] !== position) seen.push(position);
      }
    });
    const keys = [...found.keys()].sort(compareKeys);
    const postings = keys.map((key) => {
      const seen = found.get(key)!;
      return typeof seen === 'number' ? seen : Int32Array.from(seen);
    });
    return new FieldIndex(keys, postings, new Map(keys.map((key, slot) => [key, slot])));
  }

  private at(slot: number): Postings {
    const entry = this.postings[slot]!;
    return typeof entry === 'number' ? Int32Array.of(entry) : entry;
  }

  /** Positions holding `value`. */
  get(value: Scalar): Postings {
    const slot = this.slots.get(value);
    return slot === undefined ? EMPTY : this.at(slot);
  }

  /** Positions holding at least one of `values`. */
  any(values: readonly Scalar[]): Postings {
    return union(values.map((value) => this.get(value)));
  }

  /** Positions holding every one of `values` (list fields). */
  all(values: readonly Scalar[]): Postings {
    const lists = values.map((value) => this.get(value)).sort((a, b) => a.length - b.length);
    return lists.reduce((acc, list) => intersect(acc, list));
  }

  /** Positions with a value containing `needle`, ignoring case; scans distinct values only. */
  contains(needle: string): Postings {
    this.lowerKeys ??= this.keys.map((key) => String(key).toLowerCase());
    const wanted = needle.toLowerCase();
    const lists: Postings[] = [];
    this.lowerKeys.forEach((key, slot) => {
      if (key.includes(wanted)) lists.push(this.at(slot));
    });
    return union(lists);
  }

  /** Positions with a value starting with `prefix` (string keys): a binary search, then the matching keys only. */
  prefix(prefix: string): Postings {
    const lists: Postings[] = [];
    for (let slot = this.bound(prefix, false); slot < this.keys.length; slot++) {
      const key = this.keys[slot]!;
      if (typeof key !== 'string' || !key.startsWith(prefix)) break;
      lists.push(this.at(slot));
    }
    return union(lists);
  }

  /** Rough bytes held (keys, postings, lookup map), for the boot summary. */
  approximateBytes(): number {
    let bytes = 0;
    for (const key of this.keys) bytes += (typeof key === 'string' ? 2 * key.length + 24 : 8) + 80;
    for (const entry of this.postings) bytes += typeof entry === 'number' ? 8 : 4 * entry.length + 96;
    return bytes;
  }

  /** Positions with a value inside `range`. */
  range({ min, max, minInclusive = true, maxInclusive = true }: Range): Postings {
    let from = min === undefined ? 0 : this.bound(min, !minInclusive);
    const to = max === undefined ? this.keys.length : this.bound(max, maxInclusive);
    const lists: Postings[] = [];
    for (; from < to; from++) lists.push(this.at(from));
    return union(lists);
  }

  /** Positions that have any value for the field. */
  present(): Postings {
    return union(this.keys.map((_, slot) => this.at(slot)));
  }

  /** Postings of each distinct value in key order: the raw material for sort orders. */
  groups(): IterableIterator<[Scalar, Postings]> {
    return this.keys.map((key, slot): [Scalar, Postings] => [key, this.at(slot)]).values();
  }

  /** First slot whose key is > value (`after`) or >= value. */
  private bound(value: Scalar, after: boolean): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = compareKeys(this.keys[mid]!, value);
      if (c < 0 || (after && c === 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
