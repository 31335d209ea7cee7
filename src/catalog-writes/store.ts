import type { RowChange } from '../catalog/edit/draft.ts';
import { HttpError } from '../lib/http-error.ts';

/** One accepted write to the catalog: who, when, what request, and every row it changed. */
export interface OverlayWrite {
  /** 1, 2, 3…: the overlay's order, which every instance applies writes in. */
  seq: number;
  /** When it was accepted (ISO 8601). */
  at: string;
  account: { uuid: string; username: string };
  /** `PATCH /api/v1/episodes/…`: what the maintainer asked. */
  request: string;
  changes: RowChange[];
  /**
   * A write that changes no row but belongs to the change feed (`changes` empty): data/ loaded
   * with new content (`data`: its version), or a classroom sandbox emptied (`reset`: why).
   */
  mark?: { data: string } | { reset: 'reset' | 'expired' };
}

/** Whether `write` is a mark (new data, a reset), which replays nothing. */
export const isMark = (write: Pick<OverlayWrite, 'mark'>): boolean => write.mark !== undefined;

/** The mark that data/ of version `data` is served from now on. */
export const dataMark = (data: string, at = new Date().toISOString()): Omit<OverlayWrite, 'seq'> => ({
  at,
  account: { uuid: '', username: 'data/' },
  request: `data/ loaded (version ${data})`,
  changes: [],
  mark: { data },
});

/** The marks that the sandboxes of `accounts` were emptied, for `reason`. */
export const resetMarks = (
  accounts: readonly { uuid: string; username: string }[],
  reason: 'reset' | 'expired',
  at = new Date().toISOString(),
): Omit<OverlayWrite, 'seq'>[] =>
  accounts.map((account) => ({ at, account, request: `sandbox ${reason}`, changes: [], mark: { reset: reason } }));

/**
 * An append that was taken: its number (of its last write), and the store's mark (`SandboxStore.mark`) just before
 * and just after it. A writer whose last read saw `before` has seen everything but its own
 * append, so it may take `after` as read instead of reading the store again.
 */
export interface Appended {
  seq: number;
  mark: { before: string; after: string };
}

/**
 * Where accepted catalog writes are kept (the overlay over data/), beside the accounts:
 * a JSON file, or the Redis the instances share. `append` resolves only once the write is
 * durable, so a 2xx may follow it.
 */
export interface OverlayStore {
  /** Every write after `seq` (0: all), in order. */
  since(seq: number): Promise<OverlayWrite[]>;
  /** The number of the last write ever appended (0: none), exported ones included. */
  end(): Promise<number>;
  /**
   * Adds `write` as number `after + 1` if the overlay still ends at `after`; otherwise the
   * writes this process has not seen yet, to apply before trying again.
   */
  append(write: Omit<OverlayWrite, 'seq'>, after: number): Promise<Appended | { behind: OverlayWrite[] }>;
  /**
   * Adds `writes` as numbers `after + 1`, `after + 2`… in one step (one flush, one script):
   * every one of them kept, or none (the error says why); `seq` is the last one's number.
   * Behind as `append` is.
   */
  appendAll(writes: Omit<OverlayWrite, 'seq'>[], after: number): Promise<Appended | { behind: OverlayWrite[] }>;
  /**
   * Forgets the writes up to `through`, which `npm run catalog -- export` folded into data/.
   * Later writes and the numbering stay, so running instances go on as they were.
   */
  fold(through: number): Promise<void>;
  /** Calls `listener` when another process may have appended (Redis); the file store has no other writer. */
  onChange(listener: () => void): void;
  close(): void;
}

/**
 * The overlay could not be made durable (a full disk, a read-only file system, a Redis that
 * cannot persist): nothing was changed; the same write may succeed later.
 */
export class OverlayNotSaved extends HttpError {
  constructor(where: string, reason: string) {
    super(503, `The catalog change could not be saved (${where}: ${reason}); nothing was changed, retry in 30 s`, {
      'Retry-After': '30',
    });
  }
}

/**
 * Where the classroom sandboxes' writes are kept, every account's in one numbered log (each
 * write names its account): the overlay's format and guarantees, `drop` for a reset, and a
 * `mark` to notice cheaply what other processes changed.
 */
export interface SandboxStore extends Pick<OverlayStore, 'since' | 'end' | 'appendAll' | 'onChange' | 'close'> {
  /**
   * Forgets the writes `leave` accepts, in one step (no append or drop by another process
   * comes between reading them and forgetting them); resolves once that is durable. The
   * numbering goes on after the last write ever taken: a number is never given twice.
   */
  drop(leave: (write: OverlayWrite) => boolean): Promise<void>;
  /** A token that differs once the writes changed (an append or a drop, by any process), cheap to read every second. */
  mark(): Promise<string>;
}
