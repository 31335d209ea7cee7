import type { OverlayWrite } from '../catalog-writes/store.ts';
import type { Catalog } from '../catalog/catalog.ts';
import { applyChanges } from '../catalog/edit/apply.ts';
import { Draft, type RowChange } from '../catalog/edit/draft.ts';
import { passGate } from '../catalog/edit/gate.ts';
import type { WriteOutcome } from '../catalog/edit/operations.ts';
import type { WriteRequest } from './curator.ts';
import { SANDBOX_CACHE_BYTES, writeBytes, type SandboxIndex } from './sandbox-index.ts';
import { servedOf } from './served-catalog.ts';

/** A write waiting for the batch that keeps it, and how to answer it. */
export interface Pending {
  request: WriteRequest<WriteOutcome>;
  resolve: (outcome: WriteOutcome) => void;
  reject: (error: unknown) => void;
}

/** A write staged and gated: what the store is given for it, and its estimated memory (`SANDBOX_MB`). */
export interface Staged {
  pending: Pending;
  outcome: WriteOutcome;
  kept: Omit<OverlayWrite, 'seq'>;
  bytes: number;
}

/**
 * Stages `pending` on `catalog` (its account's, as a batch leaves it) and passes the gate, which
 * every write passes: refused with the gate's 400 or 409, or the staged write `at` now.
 */
export function stageWrite(pending: Pending, catalog: Catalog, at: number): Staged {
  const { request } = pending;
  request.precondition?.(catalog);
  const draft = new Draft(catalog);
  const outcome = request.stage(draft);
  passGate(draft, outcome);
  const account = { uuid: request.caller.uuid, username: request.caller.username };
  const kept = { at: new Date(at).toISOString(), account, request: request.request, changes: outcome.changes };
  return { pending, outcome, kept, bytes: writeBytes(outcome) };
}

/** Where an account stands in a batch: its last write of the batch, and the catalog it was staged on. */
interface AccountStage {
  /** The shared catalog its sandbox was over when the batch took its first write. */
  base: Catalog;
  /** Its catalog before its last write of the batch, and that write's changes. */
  before: Catalog;
  changes: RowChange[];
  /** Its catalog after that write, made only if another of its writes is staged on it. */
  after?: Catalog;
  /** Its writes: in its sandbox, then in the batch. */
  held: number;
}

/**
 * The writes of several accounts staged one after another to be kept together (one append,
 * one flush): each on its own account's catalog, with that account's earlier writes of the
 * batch, so that two of one account stage in order, the second on top of the first.
 *
 * @example
 * const batch = new SandboxBatch();
 * const catalog = batch.catalogOf(uuid) ?? sandboxCatalog(uuid);
 * batch.add(staged, catalog, base, held); // after the gate
 * batch.keepIn(index, seq, (account) => sandboxes.versionOf(account)); // once appended
 */
export class SandboxBatch {
  readonly staged: Staged[] = [];
  readonly #accounts = new Map<string, AccountStage>();
  /** The estimated memory of the batch's writes, sandboxes made included. */
  bytes = 0;

  /** The catalog an account's next write is staged on, when it has one in the batch already. */
  catalogOf(account: string): Catalog | undefined {
    const stage = this.#accounts.get(account);
    // Its version is never served: the view is made again once the writes are numbered (`view`).
    return stage && (stage.after ??= applyChanges(stage.before, stage.changes, `${stage.base.version}~staged`));
  }

  /** The account's writes, its sandbox's and the batch's, once it has one in the batch. */
  held(account: string): number | undefined {
    return this.#accounts.get(account)?.held;
  }

  /**
   * Adds a write that passed the gate, staged on `catalog` (over `base`); `held` counts the
   * writes of the account's sandbox before the batch.
   */
  add(staged: Staged, catalog: Catalog, base: Catalog, held: number): void {
    const { uuid } = staged.kept.account;
    const stage = this.#accounts.get(uuid) ?? { base, before: catalog, changes: [], held };
    Object.assign(stage, { before: catalog, changes: staged.outcome.changes, after: undefined, held: stage.held + 1 });
    this.#accounts.set(uuid, stage);
    this.staged.push(staged);
    this.bytes += staged.bytes;
  }

  /**
   * Adds the batch's writes, kept as ending at `seq`, to `index`, and gives each account its
   * catalog with them, made once however many it wrote; answers how many writes each one's
   * sandbox holds after it.
   */
  keepIn(index: SandboxIndex, seq: number, versionOf: (account: string) => string): number[] {
    const first = seq - this.staged.length + 1;
    const held = this.staged.map(({ kept }, at) => index.add({ ...kept, seq: first + at }).writes.length);
    for (const [account, last] of this.#lastSeqs(first)) {
      const { base, before, changes } = this.#accounts.get(account)!;
      // A write's number is never taken twice (not even after a reset), so the version names one content.
      const catalog = applyChanges(before, changes, `${base.version}~${last}`);
      const sandbox = index.get(account)!;
      sandbox.view = { base, served: servedOf(catalog, versionOf(account), SANDBOX_CACHE_BYTES, sandbox.view?.served) };
    }
    return held;
  }

  /** Each account with writes in the batch, with the number of its last one, the first numbered `first`. */
  #lastSeqs(first: number): Map<string, number> {
    const last = new Map<string, number>();
    this.staged.forEach((staged, at) => last.set(staged.kept.account.uuid, first + at));
    return last;
  }
}
