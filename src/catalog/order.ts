import type { Postings } from './postings.ts';
import type { Scalar } from './field-index.ts';

export type Direction = 'asc' | 'desc';

/** A field's full sort order and, for each position, its place in that order. */
export interface Order {
  order: Int32Array;
  rank: Int32Array;
}

/**
 * The sort order of a family by one field, from the field's index: `groups` are its distinct
 * values in key order with their positions. Strings collate with `collator` when given; ties
 * break on uuid (`uuidRank`, ascending in both directions) and positions lacking the field
 * come last.
 *
 * @example
 * buildOrder(index.groups(), store.uuidRank(), store.size, 'desc', new Intl.Collator('pt-BR'));
 */
export function buildOrder(
  groups: Iterable<[Scalar, Postings]>,
  uuidRank: Int32Array,
  size: number,
  direction: Direction,
  collator?: Intl.Collator,
): Order {
  const sorted = [...groups];
  if (collator) sorted.sort((a, b) => collator.compare(String(a[0]), String(b[0])));
  if (direction === 'desc') sorted.reverse();
  const order = new Int32Array(size);
  const seen = new Uint8Array(size);
  let w = 0;
  const flush = (positions: number[]) => {
    positions.sort((a, b) => uuidRank[a]! - uuidRank[b]!);
    for (const p of positions) {
      order[w++] = p;
      seen[p] = 1;
    }
  };
  let pending: number[] = [];
  sorted.forEach(([key, positions], i) => {
    // Keys a collator finds equal (canonically equivalent strings) form one group of ties.
    const prev = sorted[i - 1];
    if (prev && !(collator && collator.compare(String(prev[0]), String(key)) === 0)) {
      flush(pending);
      pending = [];
    }
    for (const p of positions) pending.push(p);
  });
  flush(pending);
  const missing: number[] = [];
  for (let p = 0; p < size; p++) if (seen[p] === 0) missing.push(p);
  flush(missing);
  const rank = new Int32Array(size);
  order.forEach((p, i) => (rank[p] = i));
  return { order, rank };
}

/**
 * `positions` (ascending) in the order `order` gives them.
 *
 * @example
 * reorder(Int32Array.of(0, 3, 7), order); // e.g. Int32Array [7, 0, 3]
 */
export function reorder(positions: Postings, { order, rank }: Order): Postings {
  if (positions.length === order.length) return order;
  // Walking the full order costs the family's size; sorting the subset costs m·log m.
  if (positions.length * Math.log2(positions.length + 1) > order.length) {
    const wanted = new Uint8Array(order.length);
    for (const p of positions) wanted[p] = 1;
    return order.filter((p) => wanted[p] === 1);
  }
  return Int32Array.from(positions).sort((a, b) => rank[a]! - rank[b]!);
}
