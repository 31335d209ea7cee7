import type { Appended, SandboxStore } from '../catalog-writes/store.ts';
import type { ChangeFeed } from '../changes/feed.ts';
import type { WriteOutcome } from '../catalog/edit/operations.ts';
import type { Logger } from '../config/logger.ts';
import { HttpError } from '../lib/http-error.ts';
import type { WriteRequest } from './curator.ts';
import { SandboxBatch, stageWrite, type Pending } from './sandbox-batch.ts';
import { SANDBOX_CACHE_BYTES } from './sandbox-index.ts';
import { refuseOverMemory, refuseOverWrites, type SandboxBounds } from './sandbox-bounds.ts';
import { SyncedSandboxes } from './sandbox-sync.ts';
import type { ServedCatalog } from './served-catalog.ts';

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
export class Sandboxes extends SyncedSandboxes {
  /** Writes waiting for the next batch. */
  readonly #pending: Pending[] = [];
  /** The batch queued and not started yet, which the next write joins. */
  #batching?: Promise<void>;

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
    await sandboxes.follow();
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
      this.#batching ??= this.queue.run(() => {
        this.#batching = undefined;
        return this.#keepAll(this.#pending.splice(0));
      });
    });
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
          this.seq,
        );
        if (!('behind' in appended)) return this.#serve(batch, appended);
        pending = batch.staged.map((staged) => staged.pending);
        await this.load();
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
    this.seq = appended.seq;
    // The store read last is the store before this append: no need to read it again for it.
    if (appended.mark.before === this.mark) this.mark = appended.mark.after;
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
    if (this.index.bytes + bytes > this.bounds.bytes) await this.dropIdle();
    refuseOverMemory(this.bounds, this.index.bytes + bytes);
  }
}
