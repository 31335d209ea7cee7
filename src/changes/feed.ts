import type { KeptWrite, Replayed } from '../catalog/edit/replay.ts';
import type { OverlayWrite } from '../catalog-writes/store.ts';
import { HttpError } from '../lib/http-error.ts';
import { ChangeLog, feedWrite, type Gone } from './change-log.ts';
import { changesOf } from './entries.ts';
import { decodeCursor, encodeCursor, type Cursor } from './cursor.ts';
import { readPage, type FeedPage } from './page.ts';
import type { Change, FeedWrite } from './types.ts';

/** Who a feed change is announced to: everyone (the shared catalog), or one account (its sandbox). */
export type FeedListener = (account?: string) => void;

/**
 * The feed writes of `writes` (a log's, in order), each with the changes replay says it made (none when it no longer
 * applied).
 */
export function feedWritesOf(writes: readonly OverlayWrite[], replayed: Pick<Replayed, 'applied'>): FeedWrite[] {
  const previous = new Map<KeptWrite, Replayed['applied'][number]['previous']>();
  for (const { write, previous: rows } of replayed.applied) previous.set(write, rows);
  return writes.map((write) => {
    const rows = previous.get(write);
    const changes = write.mark ? changesOf(write, []) : rows ? changesOf(write, rows) : [];
    return feedWrite(write.seq, write.at, changes);
  });
}

/**
 * The change feed of the catalog served: the shared log (the curators' writes and each new
 * data/, in the overlay's order, which every instance shares), and the announcements that
 * wake the streams. A reader with a classroom sandbox is also shown its own writes and
 * resets, given by `Sandboxes` (`own`).
 *
 * @example
 * const feed = new ChangeFeed();
 * feed.page('now', 100); // { changes: [], last: '…', more: false }
 */
export class ChangeFeed {
  readonly shared = new ChangeLog();
  readonly #listeners = new Set<FeedListener>();

  /** The data version: the cursor after every shared change, with the reader's sandbox place (0: none). */
  version(sandbox = 0): string {
    return encodeCursor(this.shared.now(sandbox));
  }

  /** Wakes the streams: of everyone after a shared change, of `account` alone after its sandbox changed. */
  notify(account?: string): void {
    for (const listener of this.#listeners) listener(account);
  }

  /** Calls `listener` at each change until the returned function is called. */
  subscribe(listener: FeedListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** How many streams (or other listeners) are subscribed. */
  get listeners(): number {
    return this.#listeners.size;
  }

  /**
   * Where `since` stands (absent: before every change kept; `now`: after every change, the
   * reader's own included), checked against
   * the logs: a 400 naming what is wrong with a text that is no cursor, a 410 naming the current
   * cursor for one whose changes are gone or of another catalog.
   */
  cursorOf(since: string | undefined, own: readonly FeedWrite[] = [], source = `Parameter 'since'`): Cursor {
    const ownEnd = own.at(-1)?.seq ?? 0;
    if (since === undefined) {
      const { floor } = this.shared;
      return { shared: floor, part: 0, sandbox: 0, tag: this.shared.tagOf(floor) ?? '' };
    }
    if (since === 'now') return this.shared.now(ownEnd);
    const cursor = decodeCursor(since);
    if (typeof cursor === 'string')
      throw new HttpError(400, `${source} ${cursor}; use a cursor from this feed, or 'now'`);
    const gone: Gone | undefined =
      this.shared.check(cursor) ??
      (own.length && cursor.sandbox > ownEnd ? { gone: "it is ahead of your sandbox's last change" } : undefined);
    if (gone) {
      const current = encodeCursor(this.shared.now(ownEnd));
      throw new HttpError(
        410,
        `${source} names a cursor that cannot be resumed: ${gone.gone}. Read the catalog again from scratch, ` +
          `then follow the feed from the current cursor '${current}'`,
        { 'Catalog-Version': current },
      );
    }
    return cursor;
  }

  /**
   * Whether `since` is a cursor past this log's last change: of another catalog, or (instances
   * sharing a Redis) a write this instance has not applied yet, to catch up on before judging it.
   */
  isAhead(since: string | undefined): boolean {
    const cursor = since === undefined || since === 'now' ? undefined : decodeCursor(since);
    return typeof cursor === 'object' && cursor.shared > this.shared.end;
  }

  /** Up to `limit` changes after `cursor` that `keep` accepts, with the reader's sandbox writes `own`. */
  page(cursor: Cursor, limit: number, own: readonly FeedWrite[] = [], keep?: (change: Change) => boolean): FeedPage {
    return readPage(this.shared, own, cursor, limit, keep);
  }

  /** The data files' version marked by a change (at boot, or new data/ since), kept in this process alone. */
  loaded(data: string, at = new Date().toISOString()): void {
    this.shared.add(feedWrite(this.shared.end + 1, at, changesOf({ at, changes: [], mark: { data } }, [])));
  }
}
