import type { Postings } from './postings.ts';
import type { FamilyStore } from './store.ts';

export type Direction = 'asc' | 'desc';

/** A field's full sort order and, for each position, its place in that order. */
interface Order {
  order: Int32Array;
  rank: Int32Array;
}

/**
 * Sort orders of one family, built on first use from the field's index and kept: the data
 * does not change while a catalog is loaded. Strings collate in the language being served;
 * ties break on uuid (ascending in both directions) and records lacking the field come last.
 */
export class SortOrders {
  private readonly orders = new Map<string, Order>();
  private uuidRank?: Int32Array;

  constructor(private readonly store: FamilyStore) {}

  /** `positions` (ascending) reordered by `field`. */
  sort(positions: Postings, field: string, direction: Direction, language: string): Postings {
    const { order, rank } = this.orderOf(field, direction, language);
    if (positions.length === order.length) return order;
    // Walking the full order costs the family's size; sorting the subset costs m·log m.
    if (positions.length * Math.log2(positions.length + 1) > order.length) {
      const wanted = new Uint8Array(order.length);
      for (const p of positions) wanted[p] = 1;
      return order.filter((p) => wanted[p] === 1);
    }
    return Int32Array.from(positions).sort((a, b) => rank[a]! - rank[b]!);
  }

  private orderOf(field: string, direction: Direction, language: string): Order {
    const info = this.store.family.fields.get(field)!;
    const collation = info.translated ? language : this.store.defaultLanguage;
    const key = `${field} ${direction} ${info.kind === 'string' ? collation : ''}`;
    let found = this.orders.get(key);
    if (!found) {
      found = this.build(field, direction, language, info.kind === 'string' ? new Intl.Collator(collation) : undefined);
      this.orders.set(key, found);
    }
    return found;
  }

  private build(field: string, direction: Direction, language: string, collator?: Intl.Collator): Order {
    const n = this.store.size;
    const byUuid = this.byUuid();
    const groups = [...this.store.index(field, language).groups()];
    if (collator) groups.sort((a, b) => collator.compare(String(a[0]), String(b[0])));
    if (direction === 'desc') groups.reverse();
    const order = new Int32Array(n);
    const seen = new Uint8Array(n);
    let w = 0;
    const flush = (positions: number[]) => {
      positions.sort((a, b) => byUuid[a]! - byUuid[b]!);
      for (const p of positions) {
        order[w++] = p;
        seen[p] = 1;
      }
    };
    let pending: number[] = [];
    groups.forEach(([key, positions], i) => {
      // Keys a collator finds equal (canonically equivalent strings) form one group of ties.
      const prev = groups[i - 1];
      if (prev && !(collator && collator.compare(String(prev[0]), String(key)) === 0)) {
        flush(pending);
        pending = [];
      }
      for (const p of positions) pending.push(p);
    });
    flush(pending);
    const missing: number[] = [];
    for (let p = 0; p < n; p++) if (seen[p] === 0) missing.push(p);
    flush(missing);
    const rank = new Int32Array(n);
    order.forEach((p, i) => (rank[p] = i));
    return { order, rank };
  }

  private byUuid(): Int32Array {
    if (!this.uuidRank) {
      const records = this.store.records;
      const sorted = records.map((_, p) => p).sort((a, b) => (records[a]!.uuid < records[b]!.uuid ? -1 : 1));
      this.uuidRank = new Int32Array(records.length);
      sorted.forEach((p, i) => (this.uuidRank![p] = i));
    }
    return this.uuidRank;
  }
}
