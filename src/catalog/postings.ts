/**
 * Sorted, duplicate-free lists of record positions ("postings") and the set operations the
 * query planner combines them with. Positions are indexes into a family's file order, so a
 * sorted postings list is also in default list order.
 */
export type Postings = Int32Array;

export const EMPTY: Postings = new Int32Array(0);

/** Positions 0..n-1: every record of a family. */
export function universe(n: number): Postings {
  const all = new Int32Array(n);
  for (let i = 0; i < n; i++) all[i] = i;
  return all;
}

/** Sorts and removes duplicates; the input may be any list of positions. */
export function normalize(positions: ArrayLike<number>): Postings {
  const sorted = Int32Array.from(positions).sort();
  let w = 0;
  for (let r = 0; r < sorted.length; r++) {
    if (r === 0 || sorted[r] !== sorted[r - 1]) sorted[w++] = sorted[r]!;
  }
  return w === sorted.length ? sorted : sorted.slice(0, w);
}

/** First index in `list` whose value is >= `value` (binary search from `lo`). */
function lowerBound(list: Postings, value: number, lo: number): number {
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Positions present in both lists. When one list is much shorter, each of its entries is found
 * in the other by binary search, so the cost follows the shorter list, not the family.
 */
export function intersect(a: Postings, b: Postings): Postings {
  if (a.length > b.length) [a, b] = [b, a];
  const out = new Int32Array(a.length);
  let n = 0;
  if (a.length * Math.log2(b.length + 1) < a.length + b.length) {
    let from = 0;
    for (const value of a) {
      from = lowerBound(b, value, from);
      if (from === b.length) break;
      if (b[from] === value) out[n++] = value;
    }
  } else {
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
      if (a[i]! < b[j]!) i++;
      else if (a[i]! > b[j]!) j++;
      else {
        out[n++] = a[i]!;
        i++;
        j++;
      }
    }
  }
  return out.slice(0, n);
}

/** Positions of `a` that are not in `b`. */
export function subtract(a: Postings, b: Postings): Postings {
  const out = new Int32Array(a.length);
  let n = 0;
  let j = 0;
  for (const value of a) {
    while (j < b.length && b[j]! < value) j++;
    if (j === b.length || b[j] !== value) out[n++] = value;
  }
  return out.slice(0, n);
}

/** Positions in any of the lists. */
export function union(lists: readonly Postings[]): Postings {
  if (lists.length === 0) return EMPTY;
  if (lists.length === 1) return lists[0]!;
  let total = 0;
  for (const list of lists) total += list.length;
  const all = new Int32Array(total);
  let offset = 0;
  for (const list of lists) {
    all.set(list, offset);
    offset += list.length;
  }
  return normalize(all);
}
