import type { OverlayWrite, SandboxStore } from '../catalog-writes/store.ts';
import type { Catalog } from '../catalog/catalog.ts';
import { applyChanges } from '../catalog/edit/apply.ts';
import { historyLines } from '../catalog/edit/describe.ts';
import { Draft } from '../catalog/edit/draft.ts';
import { passGate } from '../catalog/edit/gate.ts';
import type { WriteOutcome } from '../catalog/edit/operations.ts';
import { replayWrites } from '../catalog/edit/replay.ts';
import type { Logger } from '../config/logger.ts';
import { HttpError } from '../lib/http-error.ts';
import { WriteQueue } from '../lib/write-queue.ts';
import type { WriteRequest } from './curator.ts';
import { servedOf, type Served, type ServedCatalog } from './served-catalog.ts';

/** The bounds of the sandboxes (`SANDBOX_WRITES`, `SANDBOX_MB`, `SANDBOX_TTL`). */
export interface SandboxBounds {
  writes: number;
  bytes: number;
  idleMs: number;
}

/** Memory a sandbox's own response cache may take, counted in `SANDBOX_MB` from its first write. */
export const SANDBOX_CACHE_BYTES = 256 * 1024;
/** A write's estimated memory per byte of its rows' JSON: the rows as objects, the log entry, the stores it changes. */
const BYTES_PER_JSON_BYTE = 4;
/** How often the store is looked at for resets made by `npm run classroom -- reset`, and idle sandboxes dropped. */
const SYNC_MS = 1000;

interface Sandbox {
  account: { uuid: string; username: string };
  writes: OverlayWrite[];
  bytes: number;
  usedAt: number;
  /** Its catalog, built over `base` (the shared catalog then): built again once the shared catalog changes. */
  view?: { base: Catalog; served: Served };
}

const writeBytes = (write: Pick<OverlayWrite, 'changes'>) => JSON.stringify(write.changes).length * BYTES_PER_JSON_BYTE;

/**
 * The classroom sandboxes: each account below MAINTAINER writes to its own, a list of writes
 * (the overlay's format) applied over the shared catalog as it is now. A write is staged on
 * the account's catalog and passes the curator's gate, is kept in the store, then served to
 * that account alone (`viewOf`), with a response cache of its own. When the shared catalog
 * changes, each sandbox is replayed over it at its next use; a write that no longer applies is
 * left out and listed by `changes`.
 *
 * @example
 * const sandboxes = await Sandboxes.open(served, store, { writes: 200, bytes: 64 * 2 ** 20, idleMs: 86_400_000 }, log);
 * await sandboxes.write({ caller, request: 'POST /api/v1/actors', stage: (draft) => createRecord(draft, 'actors', body) });
 * served.within(() => sandboxes.viewOf(caller.uuid), next); // that account's reads see its writes
 */
export class Sandboxes {
  readonly #queue = new WriteQueue();
  readonly #byAccount = new Map<string, Sandbox>();
  #bytes = 0;
  #seq = 0;
  /** The store's writes as last read: their count and last number, to notice a reset made elsewhere. */
  #seen = '';
  #timer?: NodeJS.Timeout;

  private constructor(
    private readonly served: ServedCatalog,
    private readonly store: SandboxStore,
    private readonly bounds: SandboxBounds,
    private readonly log: Logger,
  ) {}

  static async open(
    served: ServedCatalog,
    store: SandboxStore,
    bounds: SandboxBounds,
    log: Logger,
  ): Promise<Sandboxes> {
    const sandboxes = new Sandboxes(served, store, bounds, log);
    await sandboxes.#load();
    sandboxes.#timer = setInterval(
      () => void sandboxes.sync().catch((error: Error) => log.warn(error.message)),
      SYNC_MS,
    );
    sandboxes.#timer.unref();
    return sandboxes;
  }

  /** Whether `account` has writes of its own: its reads are then answered from its sandbox. */
  holds(account: string): boolean {
    return this.#byAccount.has(account);
  }

  /** The catalog `account` reads: its sandbox's, or undefined for the shared one. */
  viewOf(account: string): Served | undefined {
    const sandbox = this.#byAccount.get(account);
    if (!sandbox) return undefined;
    sandbox.usedAt = Date.now();
    const base = this.served.shared.catalog;
    if (sandbox.view?.base !== base) {
      // A write's number is never taken twice (not even after a reset), so the version names one content.
      const version = `${base.version}~${sandbox.writes.at(-1)!.seq}`;
      const { catalog, skipped } = replayWrites(base, sandbox.writes, version);
      if (skipped.length)
        this.log.info(`sandbox of '${sandbox.account.username}': ${skipped.length} write(s) left out`);
      sandbox.view = { base, served: servedOf(catalog, SANDBOX_CACHE_BYTES) };
    }
    return sandbox.view.served;
  }

  /** Stages `request` on the caller's catalog, passes the gate, keeps it in the store, then serves it to the caller. */
  write<T extends WriteOutcome>(request: WriteRequest<T>): Promise<T> {
    return this.#queue.run(async () => {
      const { uuid, username } = request.caller;
      const catalog = (this.viewOf(uuid) ?? this.served.shared).catalog;
      const base = this.served.shared.catalog;
      request.precondition?.(catalog);
      const draft = new Draft(catalog);
      const outcome = request.stage(draft);
      passGate(draft, outcome);
      const sandbox = this.#byAccount.get(uuid);
      const kept = { at: new Date().toISOString(), account: { uuid, username }, request: request.request };
      const bytes = writeBytes(outcome) + (sandbox ? 0 : SANDBOX_CACHE_BYTES);
      await this.#bound(username, sandbox?.writes.length ?? 0, bytes);
      const appended = await this.store.append({ ...kept, changes: outcome.changes }, this.#seq);
      if ('behind' in appended) {
        await this.#load();
        throw new HttpError(503, 'The sandboxes were changed by another process meanwhile: nothing was kept, retry', {
          'Retry-After': '1',
        });
      }
      this.#seq = appended.seq;
      const write = { ...kept, changes: outcome.changes, seq: appended.seq };
      const own = this.#add(write);
      const version = `${base.version}~${write.seq}`;
      own.view = { base, served: servedOf(applyChanges(catalog, outcome.changes, version), SANDBOX_CACHE_BYTES) };
      this.#seen = this.#signature();
      this.log.info(
        `sandbox of '${username}': ${request.request} (${own.writes.length} of ${this.bounds.writes} writes)`,
      );
      return outcome;
    });
  }

  /** The caller's writes as `npm run catalog -- changes` lists them, with those that no longer apply and why (not a use: see `viewOf`). */
  changes(account: string): { writes: number; lines: string[] } {
    const sandbox = this.#byAccount.get(account);
    if (!sandbox) return { writes: 0, lines: [] };
    return {
      writes: sandbox.writes.length,
      lines: historyLines(replayWrites(this.served.shared.catalog, sandbox.writes, 'listing')),
    };
  }

  /** Forgets the sandbox of `account` (every account's when undefined); resolves with how many were reset. */
  reset(account?: string): Promise<number> {
    return this.#queue.run(async () => {
      const owner = account === undefined ? undefined : this.#byAccount.get(account)?.account.username;
      const reset = await this.#drop(account === undefined ? [...this.#byAccount.keys()] : [account]);
      if (account === undefined) this.log.info(`every sandbox reset: ${reset} dropped`);
      else if (owner) this.log.info(`sandbox of '${owner}' reset`);
      return reset;
    });
  }

  /** Reads the store again if another process changed it (a reset from the command line), and drops idle sandboxes. */
  sync(): Promise<void> {
    return this.#queue.run(async () => {
      const writes = await this.store.since(0);
      if (this.#signatureOf(writes) !== this.#seen) this.#fill(writes);
      await this.#dropIdle();
    });
  }

  close(): void {
    clearInterval(this.#timer);
    this.store.close();
  }

  /** Refuses a write past `SANDBOX_WRITES` or `SANDBOX_MB` (idle sandboxes dropped first), naming the bound and how to reset. */
  async #bound(username: string, held: number, bytes: number): Promise<void> {
    const reset = 'reset it with DELETE /api/v1/sandbox (or ask the teacher: npm run classroom -- reset)';
    if (held >= this.bounds.writes)
      throw new HttpError(
        409,
        `The sandbox of '${username}' holds ${held} writes, the most SANDBOX_WRITES allows: nothing was changed; ${reset}`,
      );
    if (this.#bytes + bytes > this.bounds.bytes) await this.#dropIdle();
    if (this.#bytes + bytes > this.bounds.bytes)
      throw new HttpError(
        409,
        `The sandboxes take all the memory SANDBOX_MB gives them (${this.bounds.bytes / 2 ** 20} MB): nothing was changed; ${reset}`,
      );
  }

  #dropIdle(): Promise<number> {
    const idle = Date.now() - this.bounds.idleMs;
    return this.#drop([...this.#byAccount.values()].filter((s) => s.usedAt < idle).map((s) => s.account.uuid));
  }

  async #load(): Promise<void> {
    this.#seq = await this.store.end();
    this.#fill(await this.store.since(0));
  }

  #fill(writes: readonly OverlayWrite[]): void {
    this.#byAccount.clear();
    this.#bytes = 0;
    for (const write of writes) this.#add(write);
    this.#seq = Math.max(this.#seq, writes.at(-1)?.seq ?? 0);
    this.#seen = this.#signatureOf(writes);
  }

  #add(write: OverlayWrite): Sandbox {
    const { uuid } = write.account;
    let sandbox = this.#byAccount.get(uuid);
    if (!sandbox) {
      sandbox = { account: write.account, writes: [], bytes: SANDBOX_CACHE_BYTES, usedAt: 0 };
      this.#byAccount.set(uuid, sandbox);
      this.#bytes += SANDBOX_CACHE_BYTES;
    }
    sandbox.writes.push(write);
    // Idle since its last write, across a restart; a read counts as use too (viewOf).
    sandbox.usedAt = Math.max(sandbox.usedAt, Date.parse(write.at) || Date.now());
    sandbox.bytes += writeBytes(write);
    this.#bytes += writeBytes(write);
    return sandbox;
  }

  async #drop(accounts: readonly string[]): Promise<number> {
    const gone = new Set(accounts.filter((account) => this.#byAccount.has(account)));
    if (!gone.size) return 0;
    await this.store.drop((write) => gone.has(write.account.uuid));
    for (const account of gone) {
      this.#bytes -= this.#byAccount.get(account)!.bytes;
      this.#byAccount.delete(account);
    }
    this.#seen = this.#signature();
    return gone.size;
  }

  /** `#signatureOf` the writes held, read by sandbox (each one's are in order), not by walking every write. */
  #signature(): string {
    const sandboxes = [...this.#byAccount.values()];
    const count = sandboxes.reduce((sum, { writes }) => sum + writes.length, 0);
    return `${count} ${Math.max(0, ...sandboxes.map(({ writes }) => writes.at(-1)!.seq))}`;
  }

  #signatureOf(writes: readonly OverlayWrite[]): string {
    return `${writes.length} ${writes.at(-1)?.seq ?? 0}`;
  }
}
