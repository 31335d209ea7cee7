import { EMPTY, intersect, union, type Postings } from './postings.ts';

export type Scalar = string | number;

/** Bounds of a range condition; an absent bound is open. */
export interface Range {
  min?: Scalar;
  max?: Scalar;
  minInclusive?: boolean;
  maxInclusive?: boolean;
}

/** Numbers numerically, strings by code unit (which orders ISO dates chronologically). */
export function compareKeys(a: Scalar, b: Scalar): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Keys in index order. A field's keys are all strings or all numbers, which the engine sorts
 * natively (strings by code unit, as compareKeys does) far faster than through a comparator.
 */
function sortKeys(keys: Scalar[]): Scalar[] {
  if (keys.every((key) => typeof key === 'string')) return keys.sort();
  if (keys.every((key) => typeof key === 'number')) return Array.from(Float64Array.from(keys as number[]).sort());
  return keys.sort(compareKeys);
}

/**
 * An inverted index of one field: each distinct value with the sorted positions holding it.
 * List fields index every element. Keys are kept sorted (numbers numerically, strings by code
 * unit, which orders ISO dates chronologically), so range conditions are a binary search.
 *
 * @example
 * const index = FieldIndex.build(['a', ['b', 'a'], undefined]);
 * index.get('a'); // Int32Array [0, 1]
 */
export class FieldIndex {
  private lowerKeys?: string[];
  /** `counts[slot]`: positions held by the keys before `slot`, for sizing ranges without reading them. */
  private counts?: Float64Array;

  private constructor(
    readonly keys: Scalar[],
    private readonly postings: (number | Postings)[],
    private readonly slots: Map<Scalar, number>,
  ) {}

  /**
   * Builds from each position's value: a scalar, a list of scalars, or undefined (or `[]`)
   * when the record lacks the field.
   */
  static build(valuesByPosition: ReadonlyArray<Scalar | readonly Scalar[] | undefined>): FieldIndex {
    // One position stays a plain number (most values of large families are unique), and the
    // map that collects positions becomes the key → slot lookup, so no second map is built.
    const found = new Map<Scalar, number | number[]>();
    const add = (value: Scalar, position: number) => {
      const seen = found.get(value);
      if (seen === undefined) found.set(value, position);
      else if (typeof seen === 'number') {
        if (seen !== position) found.set(value, [seen, position]);
      } else if (seen[seen.length - 1] !== position) seen.push(position);
    };
    for (let position = 0; position < valuesByPosition.length; position++) {
      const values = valuesByPosition[position];
      if (values === undefined) continue;
      if (typeof values === 'object') for (const value of values) add(value, position);
      else add(values, position);
    }
    const keys = sortKeys([...found.keys()]);
    const postings = new Array<number | Postings>(keys.length);
    const slots = found as unknown as Map<Scalar, number>;
    for (let slot = 0; slot < keys.length; slot++) {
      const seen = found.get(keys[slot]!)!;
      postings[slot] = typeof seen === 'number' ? seen : Int32Array.from(seen);
      slots.set(keys[slot]!, slot);
    }
    return new FieldIndex(keys, postings, slots);
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
  range(range: Range): Postings {
    const lists: Postings[] = [];
    for (let [from, to] = this.slotRange(range); from < to; from++) lists.push(this.at(from));
    return union(lists);
  }

  /** How many (position, value) pairs `range` holds: what `range()` would read, found in O(log n). */
  rangeSize(range: Range): number {
    if (!this.counts) {
      this.counts = new Float64Array(this.keys.length + 1);
      this.postings.forEach((entry, slot) => (this.counts![slot + 1] = this.counts![slot]! + (typeof entry === 'number' ? 1 : entry.length)));
    }
    const [from, to] = this.slotRange(range);
    return this.counts[to]! - this.counts[from]!;
  }

  /** How many distinct values there are: the work of a `contains`. */
  get distinct(): number {
    return this.keys.length;
  }

  private slotRange({ min, max, minInclusive = true, maxInclusive = true }: Range): [number, number] {
    const from = min === undefined ? 0 : this.bound(min, !minInclusive);
    const to = max === undefined ? this.keys.length : this.bound(max, maxInclusive);
    return [from, Math.max(from, to)];
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
