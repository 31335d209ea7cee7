import type { Appended, SandboxStore } from '../catalog-writes/store.ts';
import { markResets } from '../catalog-writes/sandbox-resets.ts';
import type { WriteOutcome } from '../catalog/edit/operations.ts';
import type { Logger } from '../config/logger.ts';
import { HttpError } from '../lib/http-error.ts';
import { reportingOnce } from '../lib/report-once.ts';
import { WriteQueue } from '../lib/write-queue.ts';
import type { WriteRequest } from './curator.ts';
import { SandboxBatch, stageWrite, type Pending } from './sandbox-batch.ts';
import { SANDBOX_CACHE_BYTES, SandboxIndex } from './sandbox-index.ts';
import { refuseOverMemory, refuseOverWrites, type SandboxBounds } from './sandbox-bounds.ts';
import { SandboxViews } from './sandbox-views.ts';
import type { ServedCatalog } from './served-catalog.ts';
import type { ChangeFeed } from '../changes/feed.ts';

/**
 * How often the store is looked at for changes made elsewhere (another instance's writes and
 * resets, `npm run classroom -- reset`) besides its announcements, and idle sandboxes dropped.
 */
const SYNC_MS = 1000;
/** How many times a write is staged again when other instances keep writing between its staging and its append. */
const WRITE_TRIES = 5;

/**
 * The classroom sandboxes: each account below MAINTAINER writes to its own, a list of writes
 * (the overlay's format) applied over the shared catalog as it is now. A write is staged on
 * the account's catalog and passes the curator's gate, is kept in the store, then served to
 * that account alone (`viewOf`), with a response cache of its own. Writes that arrive while
 * others are being kept are kept together next, with one append (one flush of the file): each
 * still staged and gated on its own account's catalog. When the shared catalog
 * changes, each sandbox is replayed over it at its next use; a write that no longer applies is
 * left out and listed by `changes`. Instances sharing the store (Redis) follow one another's
 * writes and resets as the store announces them, and every second in any case.
 *
 * @example
 * const sandboxes = await Sandboxes.open(served, store, { writes: 200, bytes: 64 * 2 ** 20, idleMs: 86_400_000 }, log);
 * await sandboxes.write({
 *   caller,
 *   request: 'POST /api/v1/actors',
 *   stage: (draft) => createRecord(draft, 'actors', body),
 * });
 * served.seenBy(() => sandboxes.viewOf(caller.uuid)); // what that account reads: the catalog with its writes
 */
export class Sandboxes extends SandboxViews {
  readonly #queue = new WriteQueue();
  /** The number of the last write this instance knows the store took: its next append comes after it. */
  #seq = 0;
  /** The store's mark when its writes were last read: they are read again once it differs. */
  #mark = '';
  /** A sync queued and not started yet, which the next call joins. */
  #syncing?: Promise<void>;
  /** Writes waiting for the next batch. */
  readonly #pending: Pending[] = [];
  /** The batch queued and not started yet, which the next write joins. */
  #batching?: Promise<void>;
  /** A refresh queued and not started yet, which the next call joins (it reads the store after that call). */
  #refreshing?: Promise<void>;
  #timer?: NodeJS.Timeout;

  private constructor(
    served: ServedCatalog,
    private readonly store: SandboxStore,
    private readonly bounds: SandboxBounds,
    log: Logger,
    now: () => number,
    feed: ChangeFeed,
  ) {
    super(served, new SandboxIndex(), log, now, feed);
  }

  /** Opens the sandboxes of `store`, each write and reset announced to its account's streams in `feed`. */
  static async open(
    served: ServedCatalog,
    store: SandboxStore,
    bounds: SandboxBounds,
    log: Logger,
    feed: ChangeFeed,
    now: () => number = Date.now,
  ): Promise<Sandboxes> {
    const sandboxes = new Sandboxes(served, store, bounds, log, now, feed);
    await sandboxes.#load();
    const follow = reportingOnce(
      () => sandboxes.sync(),
      (error) => log.warn(`sandbox changes made elsewhere not applied yet: ${error.message}`),
    );
    store.onChange(follow);
    sandboxes.#timer = setInterval(follow, SYNC_MS);
    sandboxes.#timer.unref();
    return sandboxes;
  }

  /**
   * Stages `request` on the caller's catalog, passes the gate, keeps it in the store, then
   * serves it to the caller. Writes that arrive while a batch is being kept wait for the next
   * one, kept together with one append (`#keepAll`).
   */
  write<T extends WriteOutcome>(request: WriteRequest<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ request, resolve: resolve as (outcome: WriteOutcome) => void, reject });
      this.#batching ??= this.#queue.run(() => {
        this.#batching = undefined;
        return this.#keepAll(this.#pending.splice(0));
      });
    });
  }

  /**
   * Forgets the sandbox of `account` (every account's when undefined), with what other
   * instances wrote to it until now; resolves with how many were reset.
   */
  reset(account?: string): Promise<number> {
    return this.#queue.run(async () => {
      await this.#refresh();
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
    return (this.#refreshing ??= this.#queue.run(() => {
      this.#refreshing = undefined;
      return this.#refresh();
    }));
  }

  /** Reads the store again if another process changed it (a write or a reset elsewhere), and drops idle sandboxes. */
  sync(): Promise<void> {
    return (this.#syncing ??= this.#queue.run(async () => {
      this.#syncing = undefined;
      await this.#refresh();
      await this.#dropIdle();
    }));
  }

  close(): void {
    clearInterval(this.#timer);
    this.store.close();
  }

  /**
   * Keeps `pending` (writes of any accounts) with one append, each answered once it is durable:
   * each staged on its account's catalog and gated (a refused one answered alone), then those
   * that passed appended in one step. When another instance wrote meanwhile, reads the store
   * again and stages them anew on what it holds now. A failed append fails them all, nothing kept.
   */
  async #keepAll(pending: Pending[]): Promise<void> {
    try {
      for (let tries = 1; ; tries++) {
        const batch = await this.#stageAll(pending);
        if (!batch.staged.length) return;
        const appended = await this.store.appendAll(
          batch.staged.map((staged) => staged.kept),
          this.#seq,
        );
        if (!('behind' in appended)) return this.#serve(batch, appended);
        pending = batch.staged.map((staged) => staged.pending);
        await this.#load();
        if (tries === WRITE_TRIES)
          throw new HttpError(
            503,
            'The sandboxes kept being changed by other instances meanwhile: nothing was kept, retry',
            { 'Retry-After': '1' },
          );
      }
    } catch (error) {
      // Those already answered (refused by the gate) keep their answer.
      for (const { reject } of pending) reject(error);
    }
  }

  /** Stages each of `pending` in order, in one batch; those refused are answered at once and left out. */
  async #stageAll(pending: Pending[]): Promise<SandboxBatch> {
    const batch = new SandboxBatch();
    for (const write of pending) {
      try {
        await this.#stage(write, batch);
      } catch (error) {
        write.reject(error);
      }
    }
    return batch;
  }

  /**
   * Stages one write on its account's catalog (with its writes earlier in `batch`), through the gate and the bounds,
   * into `batch`.
   */
  async #stage(pending: Pending, batch: SandboxBatch): Promise<void> {
    const { uuid, username } = pending.request.caller;
    const base = this.served.shared.catalog;
    const catalog = batch.catalogOf(uuid) ?? (this.viewOf(uuid) ?? this.served.shared).catalog;
    const staged = stageWrite(pending, catalog, this.now());
    const before = this.index.get(uuid)?.writes.length;
    const held = batch.held(uuid) ?? before ?? 0;
    // A sandbox's first write counts its response cache too.
    const bytes = staged.bytes + (held ? 0 : SANDBOX_CACHE_BYTES);
    await this.#bound(username, held, batch.bytes + bytes);
    batch.add({ ...staged, bytes }, catalog, base, before ?? 0);
  }

  /** Serves the writes of `batch`, kept as ending at `appended.seq`, and answers them. */
  #serve(batch: SandboxBatch, appended: Appended): void {
    this.#seq = appended.seq;
    // The store read last is the store before this append: no need to read it again for it.
    if (appended.mark.before === this.#mark) this.#mark = appended.mark.after;
    const held = batch.keepIn(this.index, appended.seq, (account) => this.versionOf(account));
    batch.staged.forEach(({ pending, outcome, kept }, at) => {
      this.log.info(
        `sandbox of '${kept.account.username}': ${kept.request} (${held[at]} of ${this.bounds.writes} writes)`,
      );
      pending.resolve(outcome);
    });
    for (const account of new Set(batch.staged.map(({ kept }) => kept.account.uuid))) this.feed.notify(account);
  }

  /**
   * Refuses a write past `SANDBOX_WRITES` or `SANDBOX_MB` (idle sandboxes dropped first), naming the bound and how to
   * reset.
   */
  async #bound(username: string, held: number, bytes: number): Promise<void> {
    refuseOverWrites(this.bounds, username, held);
    if (this.index.bytes + bytes > this.bounds.bytes) await this.#dropIdle();
    refuseOverMemory(this.bounds, this.index.bytes + bytes);
  }

  #dropIdle(): Promise<number> {
    const idle = this.now() - this.bounds.idleMs;
    return this.#drop(
      this.index.all().flatMap((s) => (s.usedAt < idle ? [s.account.uuid] : [])),
      'expired',
    );
  }

  /** Reads the store whole: where its numbering ends (after a reset too), and every write. */
  async #load(): Promise<void> {
    this.#seq = await this.store.end();
    this.#mark = '';
    await this.#refresh();
  }

  /** Reads the store's writes again if its mark changed since they were last read. */
  async #refresh(): Promise<void> {
    const mark = await this.store.mark();
    if (mark === this.#mark) return;
    const writes = await this.store.since(0);
    const changed = this.index.fill(writes);
    this.#seq = Math.max(this.#seq, writes.at(-1)?.seq ?? 0);
    this.#mark = mark;
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
    const marks = await markResets(this.store, owners, reason, this.#seq, new Date(this.now()).toISOString());
    this.#seq = marks.at(-1)!.seq;
    for (const mark of marks) this.index.resets.set(mark.account.uuid, mark);
    for (const account of last.keys()) this.feed.notify(account);
    return last.size;
  }
}
