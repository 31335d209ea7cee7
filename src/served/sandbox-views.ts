import type { Caller } from '../accounts/account.ts';
import { curates } from '../lib/roles.ts';
import { historyLines } from '../catalog/edit/describe.ts';
import { replayWrites } from '../catalog/edit/replay.ts';
import type { Logger } from '../config/logger.ts';
import { feedWrite } from '../changes/change-log.ts';
import { changesOf } from '../changes/entries.ts';
import type { FeedWrite } from '../changes/types.ts';
import { feedWritesOf, type ChangeFeed } from '../changes/feed.ts';
import { SANDBOX_CACHE_BYTES, type SandboxIndex } from './sandbox-index.ts';
import { servedOf, type Served, type ServedCatalog } from './served-catalog.ts';

/** What the teacher's board shows of one student (`SandboxViews.students`). */
export interface StudentSummary {
  username: string;
  writes: number;
  last_write: string | null;
  last_reset: string | null;
}

/**
 * The sandbox changes `caller`'s change feed shows: its own, read anew at each call, when it
 * may have a sandbox (classroom mode, and no curator); none otherwise.
 *
 * @example
 * readerChanges(sandboxes, caller)(); // [{ seq: 12, at: '…', tag: '…', changes: [{ action: 'created', … }] }]
 */
export function readerChanges(sandboxes: SandboxViews | undefined, caller: Caller | undefined): () => FeedWrite[] {
  if (!sandboxes || !caller || curates(caller.role)) return () => [];
  return () => sandboxes.ownChanges(caller.uuid);
}

/**
 * What the accounts with a sandbox read: each one's catalog, its writes replayed over the
 * shared catalog, built at its first use after the shared catalog changed; and its writes as
 * `npm run catalog -- changes` lists them. `Sandboxes` keeps the writes.
 */
export class SandboxViews {
  constructor(
    protected readonly served: ServedCatalog,
    protected readonly index: SandboxIndex,
    protected readonly log: Logger,
    protected readonly now: () => number,
    readonly feed: ChangeFeed,
  ) {}

  /** The data version `account` reads: the shared one, with its sandbox's place (its last write or reset). */
  versionOf(account: string): string {
    const last = Math.max(this.index.get(account)?.writes.at(-1)?.seq ?? 0, this.index.resets.get(account)?.seq ?? 0);
    return this.feed.version(last);
  }

  /**
   * The changes of `account`'s own sandbox as its change feed shows them, in order: each write
   * kept (with what it changed over the shared catalog now), and its last reset. Not a use.
   */
  ownChanges(account: string): FeedWrite[] {
    const reset = this.index.resets.get(account);
    const resetWrites = reset ? [feedWrite(reset.seq, reset.at, changesOf(reset, []))] : [];
    const sandbox = this.index.get(account);
    if (!sandbox) return resetWrites;
    const base = this.served.shared.catalog;
    if (sandbox.feed?.base !== base) {
      const replayed = replayWrites(base, sandbox.writes, 'feed');
      sandbox.feed = { base, writes: feedWritesOf(sandbox.writes, replayed) };
    }
    return [...resetWrites, ...sandbox.feed.writes].sort((a, b) => a.seq - b.seq);
  }

  /** Whether `account` has writes of its own. */
  holds(account: string): boolean {
    return this.index.get(account) !== undefined;
  }

  /**
   * Whether `caller`'s reads are answered from its own view: it has a sandbox, or one was reset
   * (its data version names the reset), and is no curator (an account promoted to MAINTAINER
   * reads and writes the shared catalog, its sandbox kept).
   */
  readsOwn(caller: Caller): boolean {
    return !curates(caller.role) && (this.holds(caller.uuid) || this.index.resets.has(caller.uuid));
  }

  /**
   * The catalog `account` reads as last built for the shared catalog now: unlike `viewOf`, not a use, and nothing is
   * built.
   */
  builtView(account: string): Served | undefined {
    const view = this.index.get(account)?.view;
    return view?.base === this.served.shared.catalog ? view.served : undefined;
  }

  /**
   * The catalog `account` reads: its sandbox's (after a reset, the shared one at its own version), or undefined for the
   * shared one.
   */
  viewOf(account: string): Served | undefined {
    const sandbox = this.index.get(account);
    if (!sandbox) {
      // Reset since its last write: the shared catalog, named at the account's place after the reset, as its feed says.
      return this.index.resets.has(account) ? { ...this.served.shared, version: this.versionOf(account) } : undefined;
    }
    sandbox.usedAt = this.now();
    const base = this.served.shared.catalog;
    if (sandbox.view?.base !== base) {
      // A write's number is never taken twice (not even after a reset), so the version names one content.
      const version = `${base.version}~${sandbox.writes.at(-1)!.seq}`;
      const { catalog, skipped } = replayWrites(base, sandbox.writes, version);
      if (skipped.length)
        this.log.info(`sandbox of '${sandbox.account.username}': ${skipped.length} write(s) left out`);
      sandbox.view = {
        base,
        served: servedOf(catalog, this.versionOf(account), SANDBOX_CACHE_BYTES, sandbox.view?.served),
      };
    }
    return sandbox.view.served;
  }

  /**
   * What the teacher's board shows of each student (an account with a sandbox, or one reset
   * since): its writes held, when it last wrote and last reset; never what it wrote.
   */
  students(): StudentSummary[] {
    const accounts = new Set([...this.index.all().map((s) => s.account.uuid), ...this.index.resets.keys()]);
    return [...accounts]
      .map((account) => this.studentOf(account)!)
      .sort((a, b) => a.username.localeCompare(b.username));
  }

  /** One student's summary (see `students`), or undefined for an account with neither writes nor resets. */
  studentOf(account: string): StudentSummary | undefined {
    const sandbox = this.index.get(account);
    const reset = this.index.resets.get(account);
    const username = sandbox?.account.username ?? reset?.account.username;
    if (username === undefined) return undefined;
    return {
      username,
      writes: sandbox?.writes.length ?? 0,
      last_write: sandbox?.writes.at(-1)?.at ?? null,
      last_reset: reset?.at ?? null,
    };
  }

  /** The class's sandbox writes held, per minute, for the `minutes` before now (oldest first). */
  perMinute(minutes: number): { minute: string; writes: number }[] {
    const last = Math.floor(this.now() / 60_000);
    const counts = new Array<number>(minutes).fill(0);
    for (const sandbox of this.index.all())
      for (const write of sandbox.writes) {
        const at = last - Math.floor(Date.parse(write.at) / 60_000);
        if (at >= 0 && at < minutes) counts[minutes - 1 - at]!++;
      }
    return counts.map((writes, i) => ({ minute: new Date((last - minutes + 1 + i) * 60_000).toISOString(), writes }));
  }

  /**
   * The caller's writes as `npm run catalog -- changes` lists them, with those that no longer apply and why (not a use:
   * see `viewOf`).
   */
  changes(account: string): { writes: number; lines: string[] } {
    const sandbox = this.index.get(account);
    if (!sandbox) return { writes: 0, lines: [] };
    return {
      writes: sandbox.writes.length,
      lines: historyLines(replayWrites(this.served.shared.catalog, sandbox.writes, 'listing')),
    };
  }
}
