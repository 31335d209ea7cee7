import { writeTag, type Cursor } from './cursor.ts';
import type { Change, FeedWrite } from './types.ts';

/** Why a cursor cannot be resumed from this log: it names changes no longer kept, or none of this catalog. */
export interface Gone {
  gone: string;
}

/**
 * The writes of one numbered log (the shared catalog's, or the sandboxes'), each with the
 * changes it made, in order: those after `floor` are kept (an export forgets those it folded
 * into data/). Numbers grow and are never given twice, so a cursor names one place for ever.
 *
 * @example
 * const log = new ChangeLog();
 * log.add({ seq: 1, tag: writeTag(1, at), changes: [{ at, action: 'created', … }] });
 * log.check({ shared: 1, part: 0, sandbox: 0, tag }); // undefined: a place of this log
 */
export class ChangeLog {
  #writes: FeedWrite[] = [];
  #floor = 0;
  /** The tag of the write at the floor, when this process saw it (cursors naming it are checked). */
  #floorTag?: string;

  /** The last write this log holds (0: none). */
  get end(): number {
    return this.#writes.at(-1)?.seq ?? this.#floor;
  }

  /** The writes at and before it are not kept. */
  get floor(): number {
    return this.#floor;
  }

  /** The cursor after every change kept, with `sandbox` as given: what a reader reading now stands at. */
  now(sandbox = 0): Cursor {
    return { shared: this.end, part: 0, sandbox, tag: this.tagOf(this.end) ?? '' };
  }

  /** Starts over with `writes`, every write after `floor` (in order): the log as a store holds it. */
  fill(floor: number, writes: readonly FeedWrite[]): void {
    const floorTag = this.tagOf(floor);
    this.#floor = floor;
    this.#floorTag = floorTag;
    this.#writes = writes.filter((write) => write.seq > floor);
  }

  /** Adds a write numbered after the last one. */
  add(write: FeedWrite): void {
    if (write.seq <= this.end) throw new Error(`write ${write.seq} is not after ${this.end}`);
    this.#writes.push(write);
  }

  /** The tag of write `seq` when this log knows it. */
  tagOf(seq: number): string | undefined {
    if (seq === 0) return '';
    if (seq === this.#floor) return this.#floorTag;
    return this.#find(seq)?.tag;
  }

  /** Why `cursor` is not a place of this log (undefined: it is). */
  check(cursor: Cursor): Gone | undefined {
    const { shared, part, tag } = cursor;
    if (shared > this.end) return { gone: `it is ahead of the last change kept: not a cursor of this catalog` };
    if (shared < this.#floor)
      return { gone: 'the changes after it are no longer kept (the writes were folded into the data files)' };
    const known = this.tagOf(shared);
    if (known !== undefined && known !== tag) return { gone: 'it names a change this catalog never made' };
    const write = this.#find(shared);
    if (part > 0 && (!write || part >= write.changes.length))
      return { gone: 'it names a change this catalog never made' };
    return undefined;
  }

  /**
   * The writes after `cursor`'s place, in order, each with the index of its first change not
   * yet read (after a cursor in the middle of a write, that write's rest comes first).
   */
  *after(cursor: Pick<Cursor, 'shared' | 'part'>): Generator<{ write: FeedWrite; from: number }> {
    let at = this.#indexAfter(cursor.shared);
    if (cursor.part > 0) {
      const write = this.#writes[at - 1];
      if (write?.seq === cursor.shared) yield { write, from: cursor.part };
    }
    for (; at < this.#writes.length; at++) yield { write: this.#writes[at]!, from: 0 };
  }

  /** Every write kept, in order. */
  get writes(): readonly FeedWrite[] {
    return this.#writes;
  }

  #find(seq: number): FeedWrite | undefined {
    const at = this.#indexAfter(seq) - 1;
    return this.#writes[at]?.seq === seq ? this.#writes[at] : undefined;
  }

  /** The index of the first write numbered after `seq` (binary search: numbers grow). */
  #indexAfter(seq: number): number {
    let low = 0;
    let high = this.#writes.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.#writes[mid]!.seq <= seq) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

/** A write as the feed holds it, from its number, time and changes. */
export const feedWrite = (seq: number, at: string, changes: Change[]): FeedWrite => ({
  seq,
  at,
  tag: writeTag(seq, at),
  changes,
});
