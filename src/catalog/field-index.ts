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

/** Lists of at least this many positions are packed into an Int32Array when the index is built. */
const PACK_FROM = 16;

/** Positions of one value as collected: one position, or several before they are packed. */
type Entry = number | number[] | Postings;

/** An entry as postings (one position or a collected list becomes an Int32Array). */
function postingsOf(entry: Entry): Postings {
  if (typeof entry === 'number') return Int32Array.of(entry);
  return entry instanceof Int32Array ? entry : Int32Array.from(entry);
}

/**
 * An inverted index of one field: each distinct value with the sorted positions holding it.
 * List fields index every element. Lookups of a value go straight to a map; the values'
 * order (numbers numerically, strings by code unit, which orders ISO dates chronologically)
 * is worked out the first time a range, prefix or sort needs it, then kept, so a field that
 * is only ever matched exactly never pays for sorting its values.
 *
 * @example
 * const index = FieldIndex.build(['a', ['b', 'a'], undefined]);
 * index.get('a'); // Int32Array [0, 1]
 */
export class FieldIndex {
  private ordered?: { keys: Scalar[]; counts: Float64Array };

  private constructor(private readonly entries: Map<Scalar, Entry>) {}

  /**
   * Builds from each position's value: a scalar, a list of scalars, or undefined (or `[]`)
   * when the record lacks the field.
   */
  static build(valuesByPosition: ReadonlyArray<Scalar | readonly Scalar[] | undefined>): FieldIndex {
    const builder = new FieldIndexBuilder();
    for (let position = 0; position < valuesByPosition.length; position++) {
      const values = valuesByPosition[position];
      if (values === undefined) continue;
      if (typeof values === 'object') for (const value of values) builder.add(value, position);
      else builder.add(values, position);
    }
    return builder.build();
  }

  /** The index of what a builder collected (see FieldIndexBuilder), lists packed into Int32Arrays. */
  static fromFound(found: Map<Scalar, number | number[]>): FieldIndex {
    const entries = found as Map<Scalar, Entry>;
    // Long lists take half the memory packed; short ones are smaller and quicker to make as
    // plain arrays (a typed array costs ~100 bytes of its own) and are packed when read.
    // Setting an existing key while iterating is safe.
    for (const [key, entry] of entries)
      if (Array.isArray(entry) && entry.length >= PACK_FROM) entries.set(key, Int32Array.from(entry));
    return new FieldIndex(entries);
  }

  /** The distinct values in order, and `counts[i]`: positions held by the values before the i-th. */
  private order(): { keys: Scalar[]; counts: Float64Array } {
    if (!this.ordered) {
      const keys = sortKeys([...this.entries.keys()]);
      const counts = new Float64Array(keys.length + 1);
      keys.forEach((key, i) => {
        const entry = this.entries.get(key)!;
        counts[i + 1] = counts[i]! + (typeof entry === 'number' ? 1 : entry.length);
      });
      this.ordered = { keys, counts };
    }
    return this.ordered;
  }

  /** Positions holding `value`. */
  get(value: Scalar): Postings {
    const entry = this.entries.get(value);
    return entry === undefined ? EMPTY : postingsOf(entry);
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
    const wanted = needle.toLowerCase();
    const lists: Postings[] = [];
    for (const key of this.entries.keys()) if (String(key).toLowerCase().includes(wanted)) lists.push(this.get(key));
    return union(lists);
  }

  /** Positions with a value starting with `prefix` (string keys): a binary search, then the matching keys only. */
  prefix(prefix: string): Postings {
    const { keys } = this.order();
    const lists: Postings[] = [];
    for (let i = this.bound(prefix, false); i < keys.length; i++) {
      const key = keys[i]!;
      if (typeof key !== 'string' || !key.startsWith(prefix)) break;
      lists.push(this.get(key));
    }
    return union(lists);
  }

  /** Positions with a value inside `range`. */
  range(range: Range): Postings {
    const { keys } = this.order();
    const lists: Postings[] = [];
    for (let [from, to] = this.slotRange(range); from < to; from++) lists.push(this.get(keys[from]!));
    return union(lists);
  }

  /** How many (position, value) pairs `range` holds: what `range()` would read, found in O(log n). */
  rangeSize(range: Range): number {
    const { counts } = this.order();
    const [from, to] = this.slotRange(range);
    return counts[to]! - counts[from]!;
  }

  /** How many distinct values there are: the work of a `contains`. */
  get distinct(): number {
    return this.entries.size;
  }

  private slotRange({ min, max, minInclusive = true, maxInclusive = true }: Range): [number, number] {
    const from = min === undefined ? 0 : this.bound(min, !minInclusive);
    const to = max === undefined ? this.order().keys.length : this.bound(max, maxInclusive);
    return [from, Math.max(from, to)];
  }

  /** Postings of each distinct value in order: the raw material for sort orders. */
  groups(): IterableIterator<[Scalar, Postings]> {
    return this.order()
      .keys.map((key): [Scalar, Postings] => [key, this.get(key)])
      .values();
  }

  /** First index in the ordered values whose value is > value (`after`) or >= value. */
  private bound(value: Scalar, after: boolean): number {
    const { keys } = this.order();
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = compareKeys(keys[mid]!, value);
      if (c < 0 || (after && c === 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/**
 * Collects (value, position) pairs, positions in ascending order, into a FieldIndex. A value
 * seen at one position only stays a plain number: most values of large families are unique.
 *
 * @example
 * const builder = new FieldIndexBuilder();
 * builder.add('sao', 0); builder.add('bras', 0); builder.add('sao', 4);
 * builder.build().get('sao'); // Int32Array [0, 4]
 */
export class FieldIndexBuilder {
  private readonly found = new Map<Scalar, number | number[]>();

  add(value: Scalar, position: number): void {
    const seen = this.found.get(value);
    if (seen === undefined) this.found.set(value, position);
    else if (typeof seen === 'number') {
      if (seen !== position) this.found.set(value, [seen, position]);
    } else if (seen[seen.length - 1] !== position) seen.push(position);
  }

  build(): FieldIndex {
    return FieldIndex.fromFound(this.found);
  }
}
