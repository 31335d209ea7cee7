import type { Caller } from '../accounts/account.ts';
import { curates } from '../lib/roles.ts';
import { historyLines } from '../catalog/edit/describe.ts';
import { replayWrites } from '../catalog/edit/replay.ts';
import type { Logger } from '../config/logger.ts';
import { SANDBOX_CACHE_BYTES, type SandboxIndex } from './sandbox-index.ts';
import { servedOf, type Served, type ServedCatalog } from './served-catalog.ts';

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
  ) {}

  /** Whether `account` has writes of its own. */
  holds(account: string): boolean {
    return this.index.get(account) !== undefined;
  }

  /**
   * Whether `caller`'s reads are answered from its sandbox: it has one and is no curator (an
   * account promoted to MAINTAINER reads and writes the shared catalog, its sandbox kept).
   */
  readsOwn(caller: Caller): boolean {
    return !curates(caller.role) && this.holds(caller.uuid);
  }

  /** The catalog `account` reads as last built for the shared catalog now: unlike `viewOf`, not a use, and nothing is built. */
  builtView(account: string): Served | undefined {
    const view = this.index.get(account)?.view;
    return view?.base === this.served.shared.catalog ? view.served : undefined;
  }

  /** The catalog `account` reads: its sandbox's, or undefined for the shared one. */
  viewOf(account: string): Served | undefined {
    const sandbox = this.index.get(account);
    if (!sandbox) return undefined;
    sandbox.usedAt = this.now();
    const base = this.served.shared.catalog;
    if (sandbox.view?.base !== base) {
      // A write's number is never taken twice (not even after a reset), so the version names one content.
      const version = `${base.version}~${sandbox.writes.at(-1)!.seq}`;
      const { catalog, skipped } = replayWrites(base, sandbox.writes, version);
      if (skipped.length)
        this.log.info(`sandbox of '${sandbox.account.username}': ${skipped.length} write(s) left out`);
      sandbox.view = { base, served: servedOf(catalog, SANDBOX_CACHE_BYTES, sandbox.view?.served) };
    }
    return sandbox.view.served;
  }

  /** The caller's writes as `npm run catalog -- changes` lists them, with those that no longer apply and why (not a use: see `viewOf`). */
  changes(account: string): { writes: number; lines: string[] } {
    const sandbox = this.index.get(account);
    if (!sandbox) return { writes: 0, lines: [] };
    return {
      writes: sandbox.writes.length,
      lines: historyLines(replayWrites(this.served.shared.catalog, sandbox.writes, 'listing')),
    };
  }
}
