import type { ChangeLog } from './change-log.ts';
import { encodeCursor, type Cursor } from './cursor.ts';
import type { Change, FeedWrite } from './types.ts';

/** One page of the feed: its changes, each with its cursor, the cursor after them, and whether more follow. */
export interface FeedPage {
  changes: (Change & { cursor: string })[];
  last: string;
  more: boolean;
}

/**
 * The changes after `cursor`, at most `limit` (but a sandbox write's are never split): the
 * shared log's, and `own` (the reader's sandbox writes, in order), each in its own order, the
 * two interleaved by time; changes `keep` refuses are passed over, uncounted. The cursor is a place in both, so a
 * reader resuming from any change's cursor is shown every later change once, whichever comes first.
 *
 * @example
 * readPage(shared, [], { shared: 0, part: 0, sandbox: 0, tag: '' }, 100).changes.length; // up to 100
 */
export function readPage(
  shared: ChangeLog,
  own: readonly FeedWrite[],
  cursor: Cursor,
  limit: number,
  keep: (change: Change) => boolean = () => true,
): FeedPage {
  const place = { ...cursor };
  const changes: FeedPage['changes'] = [];
  const sharedWrites = shared.after(cursor);
  let next = sharedWrites.next();
  let ownAt = own.findIndex((write) => write.seq > cursor.sandbox);
  if (ownAt < 0) ownAt = own.length;
  while (!next.done || ownAt < own.length) {
    const mine = own[ownAt];
    if (mine && (next.done || mine.at < next.value.write.at)) {
      if (changes.length >= limit) break;
      place.sandbox = mine.seq;
      const cursorText = encodeCursor(place);
      for (const change of mine.changes)
        if (keep(change)) changes.push({ ...change, sandbox: true, cursor: cursorText });
      ownAt++;
      continue;
    }
    const { write, from } = next.value!;
    let index = from;
    for (; index < write.changes.length && changes.length < limit; index++) {
      const end = index + 1 === write.changes.length;
      Object.assign(place, { shared: write.seq, part: end ? 0 : index + 1, tag: write.tag });
      if (keep(write.changes[index]!)) changes.push({ ...write.changes[index]!, cursor: encodeCursor(place) });
    }
    if (index < write.changes.length) return { changes, last: encodeCursor(place), more: true };
    Object.assign(place, { shared: write.seq, part: 0, tag: write.tag });
    next = sharedWrites.next();
  }
  return { changes, last: encodeCursor(place), more: !next.done || ownAt < own.length };
}
