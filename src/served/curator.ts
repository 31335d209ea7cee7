import type { Caller } from '../accounts/account.ts';
import { dataMark, OverlayNotSaved, type OverlayStore, type OverlayWrite } from '../catalog-writes/store.ts';
import { feedWrite } from '../changes/change-log.ts';
import { changesOf } from '../changes/entries.ts';
import { applyChanges } from '../catalog/edit/apply.ts';
import { staleWritesReport } from '../catalog/edit/describe.ts';
import { Draft } from '../catalog/edit/draft.ts';
import { passGate } from '../catalog/edit/gate.ts';
import type { WriteOutcome } from '../catalog/edit/operations.ts';
import { replayWrites, rowsBefore } from '../catalog/edit/replay.ts';
import type { Catalog } from '../catalog/catalog.ts';
import type { Logger } from '../config/logger.ts';
import { reportingOnce } from '../lib/report-once.ts';
import { WriteQueue } from '../lib/write-queue.ts';
import { feedWritesOf, type ChangeFeed } from '../changes/feed.ts';
import type { ServedCatalog } from './served-catalog.ts';

/** One write as a route asks for it: who, what request, and the catalog function that stages it. */
export interface WriteRequest<T extends WriteOutcome> {
  caller: Caller;
  request: string;
  /** Runs before the write is staged, on the catalog it will change (the `If-Match` check). */
  precondition?: (catalog: Catalog) => void;
  stage: (draft: Draft) => T;
}

/**
 * Takes catalog writes one at a time: stages each on the catalog served now (the catalog's
 * own functions), passes it through the gate (the catalog's checks), makes it durable in the overlay, then serves the
 * catalog with it in one swap, so no answer after a 2xx is stale. Writes that other instances appended (a
 * shared Redis) are applied the same way, in the overlay's order.
 *
 * @example
 * const curator = await Curator.open(served, overlay, log);
 * const outcome = await curator.write({
 *   caller,
 *   request: 'PATCH /api/v1/actors/…',
 *   stage: (draft) => patchRecord(draft, 'actors', uuid, body),
 * });
 */
export class Curator {
  readonly #queue = new WriteQueue();
  #seq = 0;

  private constructor(
    private readonly served: ServedCatalog,
    private readonly overlay: OverlayStore,
    private baseVersion: string,
    private readonly log: Logger,
    readonly feed: ChangeFeed,
  ) {}

  /**
   * Applies the overlay over the served catalog (reporting writes that no longer apply) and
   * follows it from then on, each write and each new data/ a change of `feed`.
   */
  static async open(served: ServedCatalog, overlay: OverlayStore, log: Logger, feed: ChangeFeed): Promise<Curator> {
    const curator = new Curator(served, overlay, served.shared.catalog.version, log, feed);
    await curator.#replayAll(served.shared.catalog);
    overlay.onChange(
      reportingOnce(
        () => curator.sync(),
        (error) => log.warn(`catalog changes from other instances not applied yet: ${error.message}`),
      ),
    );
    return curator;
  }

  /** Applies what other instances appended since this one last looked. */
  sync(): Promise<void> {
    return this.#queue.run(async () => this.#catchUp(await this.overlay.since(this.#seq)));
  }

  write<T extends WriteOutcome>(request: WriteRequest<T>): Promise<T> {
    return this.#queue.run(async () => {
      for (;;) {
        const { catalog } = this.served.shared;
        request.precondition?.(catalog);
        const draft = new Draft(catalog);
        const outcome = request.stage(draft);
        passGate(draft, outcome);
        const kept = {
          at: new Date().toISOString(),
          account: { uuid: request.caller.uuid, username: request.caller.username },
          request: request.request,
          changes: outcome.changes,
        };
        const appended = await this.overlay.append(kept, this.#seq);
        if ('behind' in appended) {
          // Never an endless loop: an overlay that ends before this instance's last write lost writes.
          if (appended.behind.length === 0)
            throw new OverlayNotSaved(
              'the overlay',
              `it ends before write ${this.#seq}, which this instance applied: was it emptied? Restart the instances`,
            );
          // Another instance wrote first: catch up, then stage again on what it left.
          this.#catchUp(appended.behind);
          continue;
        }
        this.#seq = appended.seq;
        this.feed.shared.add(feedWrite(appended.seq, kept.at, changesOf(kept, rowsBefore(catalog, outcome.changes))));
        this.served.replace(applyChanges(catalog, outcome.changes, this.#version()), this.feed.version());
        this.feed.notify();
        return outcome;
      }
    });
  }

  /** Serves `catalog` (data/ edited under `npm run dev`) with the overlay applied over it again. */
  rebase(catalog: Catalog): Promise<void> {
    return this.#queue.run(() => this.#replayAll(catalog));
  }

  close(): void {
    this.overlay.close();
  }

  #version(): string {
    return `${this.baseVersion}.${this.#seq}`;
  }

  /**
   * Serves `base` with every write kept applied over it; numbering goes on after the last ever
   * taken (exported ones too). When the last data/ the overlay names is not `base`, a mark of
   * it is appended first: new data is one change of the feed, numbered with the writes. An
   * overlay that cannot be read changes nothing served.
   */
  async #replayAll(base: Catalog): Promise<void> {
    let end: number;
    let writes: OverlayWrite[];
    for (;;) {
      // The end is read first: a write appended meanwhile is either replayed now or found by the next sync.
      end = await this.overlay.end();
      writes = await this.overlay.since(0);
      const data = writes.findLast((write) => write.mark && 'data' in write.mark)?.mark;
      if (data && 'data' in data && data.data === base.version) break;
      // Appended only if no other instance appended meanwhile; read again either way (another may have marked the same
      // data).
      const marked = await this.overlay.append(dataMark(base.version), end).catch((error: Error) => {
        this.log.warn(`data/ version ${base.version} not marked in the change feed: ${error.message}`);
      });
      if (!marked) break;
    }
    this.baseVersion = base.version;
    this.#seq = end;
    const { catalog, skipped, applied } = replayWrites(base, writes, this.#version());
    if (skipped.length) this.log.warn(staleWritesReport(skipped));
    this.feed.shared.fill(writes.length ? writes[0]!.seq - 1 : end, feedWritesOf(writes, { applied }));
    this.served.replace(catalog, this.feed.version());
    this.feed.notify();
  }

  #catchUp(writes: readonly OverlayWrite[]): void {
    if (writes.length) this.#apply(this.served.shared.catalog, writes);
  }

  /** Serves `base` with `writes` (appended by other instances) replayed over it, saying which no longer apply. */
  #apply(base: Catalog, writes: readonly OverlayWrite[]): void {
    this.#seq = writes.at(-1)?.seq ?? this.#seq;
    const replayed = replayWrites(base, writes, this.#version());
    if (replayed.skipped.length) this.log.warn(staleWritesReport(replayed.skipped));
    for (const write of feedWritesOf(writes, replayed))
      if (write.seq > this.feed.shared.end) this.feed.shared.add(write);
    this.served.replace(replayed.catalog, this.feed.version());
    this.feed.notify();
  }
}
