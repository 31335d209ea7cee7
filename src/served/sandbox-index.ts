import { isMark, type OverlayWrite } from '../catalog-writes/store.ts';
import type { FeedWrite } from '../changes/types.ts';
import type { Catalog } from '../catalog/catalog.ts';
import type { Served } from './served-catalog.ts';

/** Memory a sandbox's own response cache may take, counted in `SANDBOX_MB` from its first write. */
export const SANDBOX_CACHE_BYTES = 256 * 1024;
/** A write's estimated memory per byte of its rows' JSON: the rows as objects, the log entry, the stores it changes. */
const BYTES_PER_JSON_BYTE = 4;

/** A write's estimated memory, as `SANDBOX_MB` counts it. */
export const writeBytes = (write: Pick<OverlayWrite, 'changes'>): number =>
  JSON.stringify(write.changes).length * BYTES_PER_JSON_BYTE;

/** One account's sandbox in memory: its writes, their estimated memory, its last use, and its catalog once built. */
export interface Sandbox {
  account: { uuid: string; username: string };
  writes: OverlayWrite[];
  bytes: number;
  usedAt: number;
  /** Its catalog, built over `base` (the shared catalog then): built again once the shared catalog changes. */
  view?: { base: Catalog; served: Served };
  /** Its writes as the change feed shows them, made over `base` once asked. */
  feed?: { base: Catalog; writes: FeedWrite[] };
}

/** Whether two lists hold the same writes: numbers are never given twice, so the same numbers. */
const sameWrites = (a: readonly OverlayWrite[], b: readonly OverlayWrite[]) =>
  a.length === b.length && a.every((write, at) => write.seq === b[at]!.seq);

/**
 * The sandboxes held in memory, by account, with the memory they are estimated to take.
 *
 * @example
 * const index = new SandboxIndex();
 * index.fill(await store.since(0));
 * index.get(uuid)?.writes.length;
 */
export class SandboxIndex {
  readonly #byAccount = new Map<string, Sandbox>();
  /** The last reset of each account whose sandbox was ever reset (a mark kept in the store). */
  readonly resets = new Map<string, OverlayWrite>();
  #bytes = 0;

  /** The memory every sandbox held takes, estimated. */
  get bytes(): number {
    return this.#bytes;
  }

  get(account: string): Sandbox | undefined {
    return this.#byAccount.get(account);
  }

  all(): Sandbox[] {
    return [...this.#byAccount.values()];
  }

  /** Adds `write` to its account's sandbox (made on its first write). */
  add(write: OverlayWrite): Sandbox {
    const { uuid } = write.account;
    let sandbox = this.#byAccount.get(uuid);
    if (!sandbox) {
      sandbox = { account: write.account, writes: [], bytes: SANDBOX_CACHE_BYTES, usedAt: 0 };
      this.#byAccount.set(uuid, sandbox);
      this.#bytes += SANDBOX_CACHE_BYTES;
    }
    sandbox.writes.push(write);
    // Its feed's changes were listed without this write.
    sandbox.feed = undefined;
    // Idle since its last write, across a restart; a read counts as use too (Sandboxes.viewOf).
    sandbox.usedAt = Math.max(sandbox.usedAt, Date.parse(write.at) || Date.now());
    const bytes = writeBytes(write);
    sandbox.bytes += bytes;
    this.#bytes += bytes;
    return sandbox;
  }

  remove(account: string): void {
    const sandbox = this.#byAccount.get(account);
    if (!sandbox) return;
    this.#bytes -= sandbox.bytes;
    this.#byAccount.delete(account);
  }

  /**
   * Holds exactly `writes` (the store's, in order; a reset mark is kept apart, in `resets`). A
   * sandbox whose writes are the same is kept as it was, with its catalog, so that another
   * account's write does not make it replay. Answers the accounts whose writes or resets changed.
   */
  fill(writes: readonly OverlayWrite[]): Set<string> {
    const byAccount = new Map<string, OverlayWrite[]>();
    const changed = new Set<string>();
    for (const write of writes) {
      if (isMark(write)) {
        if (this.resets.get(write.account.uuid)?.seq !== write.seq) changed.add(write.account.uuid);
        this.resets.set(write.account.uuid, write);
        continue;
      }
      const own = byAccount.get(write.account.uuid);
      if (own) own.push(write);
      else byAccount.set(write.account.uuid, [write]);
    }
    const before = new Map(this.#byAccount);
    this.#byAccount.clear();
    this.#bytes = 0;
    for (const [account, own] of byAccount) {
      const kept = before.get(account);
      before.delete(account);
      if (kept && sameWrites(kept.writes, own)) {
        this.#byAccount.set(account, kept);
        this.#bytes += kept.bytes;
        continue;
      }
      changed.add(account);
      let sandbox!: Sandbox;
      for (const write of own) sandbox = this.add(write);
      // A read here counts as use, whatever another instance wrote since.
      if (kept) sandbox.usedAt = Math.max(kept.usedAt, sandbox.usedAt);
    }
    for (const account of before.keys()) changed.add(account);
    return changed;
  }
}
