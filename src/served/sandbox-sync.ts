import type { SandboxStore } from '../catalog-writes/store.ts';
import { markResets } from '../catalog-writes/sandbox-resets.ts';
import type { ChangeFeed } from '../changes/feed.ts';
import type { Logger } from '../config/logger.ts';
import { reportingOnce } from '../lib/report-once.ts';
import { WriteQueue } from '../lib/write-queue.ts';
import type { SandboxBounds } from './sandbox-bounds.ts';
import { SandboxIndex } from './sandbox-index.ts';
import { SandboxViews } from './sandbox-views.ts';
import type { ServedCatalog } from './served-catalog.ts';

/**
 * How often the store is looked at for changes made elsewhere (another instance's writes and
 * resets, `npm run classroom -- reset`) besides its announcements, and idle sandboxes dropped.
 */
const SYNC_MS = 1000;

/**
 * The sandboxes as their store holds them: read whole at the start, read again when the store's
 * mark changes (another instance's writes and resets, as the store announces them, and every
 * second in any case), and forgotten on a reset or when idle past their time, each with a mark
 * its account's change feed shows. Every change to them runs in one queue, with the writes
 * (`Sandboxes`).
 */
export class SyncedSandboxes extends SandboxViews {
  protected readonly queue = new WriteQueue();
  /** The number of the last write this instance knows the store took: its next append comes after it. */
  protected seq = 0;
  /** The store's mark when its writes were last read: they are read again once it differs. */
  protected mark = '';
  /** A sync queued and not started yet, which the next call joins. */
  #syncing?: Promise<void>;
  /** A refresh queued and not started yet, which the next call joins (it reads the store after that call). */
  #refreshing?: Promise<void>;
  #timer?: NodeJS.Timeout;

  protected constructor(
    served: ServedCatalog,
    protected readonly store: SandboxStore,
    protected readonly bounds: SandboxBounds,
    log: Logger,
    now: () => number,
    feed: ChangeFeed,
  ) {
    super(served, new SandboxIndex(), log, now, feed);
  }

  /** Reads the store whole, then follows what other instances change in it. */
  protected async follow(): Promise<void> {
    await this.load();
    const follow = reportingOnce(
      () => this.sync(),
      (error) => this.log.warn(`sandbox changes made elsewhere not applied yet: ${error.message}`),
    );
    this.store.onChange(follow);
    this.#timer = setInterval(follow, SYNC_MS);
    this.#timer.unref();
  }

  /**
   * Forgets the sandbox of `account` (every account's when undefined), with what other
   * instances wrote to it until now; resolves with how many were reset.
   */
  reset(account?: string): Promise<number> {
    return this.queue.run(async () => {
      await this.readStore();
      const owner = account === undefined ? undefined : this.index.get(account)?.account.username;
      const reset = await this.#drop(
        account === undefined ? this.index.all().map((s) => s.account.uuid) : [account],
        'reset',
      );
      if (account === undefined) this.log.info(`every sandbox reset: ${reset} dropped`);
      else if (owner) this.log.info(`sandbox of '${owner}' reset`);
      return reset;
    });
  }

  /**
   * Reads the store again if another process changed it since it was last read: one cheap read
   * of its mark otherwise. A write request calls it first, so that what the caller wrote
   * through another instance, acknowledged before this request, is what it is checked against.
   */
  refresh(): Promise<void> {
    return (this.#refreshing ??= this.queue.run(() => {
      this.#refreshing = undefined;
      return this.readStore();
    }));
  }

  /** Reads the store again if another process changed it (a write or a reset elsewhere), and drops idle sandboxes. */
  sync(): Promise<void> {
    return (this.#syncing ??= this.queue.run(async () => {
      this.#syncing = undefined;
      await this.readStore();
      await this.dropIdle();
    }));
  }

  close(): void {
    clearInterval(this.#timer);
    this.store.close();
  }

  /** Forgets the sandboxes unused (no read or write) for longer than the bounds' `idleMs`. */
  protected dropIdle(): Promise<number> {
    const idle = this.now() - this.bounds.idleMs;
    return this.#drop(
      this.index.all().flatMap((s) => (s.usedAt < idle ? [s.account.uuid] : [])),
      'expired',
    );
  }

  /** Reads the store whole: where its numbering ends (after a reset too), and every write. */
  protected async load(): Promise<void> {
    this.seq = await this.store.end();
    this.mark = '';
    await this.readStore();
  }

  /** Reads the store's writes again if its mark changed since they were last read. */
  protected async readStore(): Promise<void> {
    const mark = await this.store.mark();
    if (mark === this.mark) return;
    const writes = await this.store.since(0);
    const changed = this.index.fill(writes);
    this.seq = Math.max(this.seq, writes.at(-1)?.seq ?? 0);
    this.mark = mark;
    for (const account of changed) this.feed.notify(account);
  }

  /**
   * Forgets the sandboxes of `accounts`: the writes of theirs this instance has read, so that
   * one another instance appends meanwhile is not lost unseen (the next sync reads it). Each
   * one emptied gets a mark of it (its earlier marks dropped), which its change feed shows.
   */
  async #drop(accounts: readonly string[], reason: 'reset' | 'expired'): Promise<number> {
    const last = new Map<string, number>();
    const owners = [];
    for (const account of accounts) {
      const sandbox = this.index.get(account);
      if (sandbox) {
        last.set(account, sandbox.writes.at(-1)!.seq);
        owners.push(sandbox.account);
      }
    }
    if (!last.size) return 0;
    await this.store.drop((write) => write.seq <= (last.get(write.account.uuid) ?? 0));
    for (const account of last.keys()) this.index.remove(account);
    const marks = await markResets(this.store, owners, reason, this.seq, new Date(this.now()).toISOString());
    this.seq = marks.at(-1)!.seq;
    for (const mark of marks) this.index.resets.set(mark.account.uuid, mark);
    for (const account of last.keys()) this.feed.notify(account);
    return last.size;
  }
}
