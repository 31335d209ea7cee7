import type { Catalog } from '../catalog.ts';
import { FAMILIES } from '../families.ts';
import { applyChanges } from './apply.ts';
import { checkEdit } from './check-edit.ts';
import { Draft, fingerprint, type Row, type RowChange } from './draft.ts';

/** A write kept in the overlay, as replay needs it. */
export interface KeptWrite {
  seq: number;
  at: string;
  account: { username: string };
  request: string;
  changes: RowChange[];
}

/** A kept write that applied, with the row each of its changes replaced (undefined: none). */
export interface AppliedWrite {
  write: KeptWrite;
  previous: (Row | undefined)[];
}

/** What replaying the overlay gave: the catalog, its net changes over the base, what applied and what was left out. */
export interface Replayed {
  catalog: Catalog;
  changes: RowChange[];
  applied: AppliedWrite[];
  skipped: { write: KeptWrite; reason: string }[];
}

/** The row a change replaces, as the draft has it now. */
function current(draft: Draft, change: RowChange) {
  return change.language === undefined ? draft.record(change.family, change.uuid) : draft.translation(change.family, change.uuid, change.language);
}

/** Why a kept write no longer applies to the catalog, or undefined when it does. */
function stale(draft: Draft, write: KeptWrite): string | undefined {
  for (const change of write.changes) {
    if (fingerprint(current(draft, change)) === change.before) continue;
    const family = FAMILIES.get(change.family)!;
    const file = change.language === undefined ? family.file : `${family.translation!.file} (${change.language})`;
    return `${family.singular} '${change.uuid}' in ${file} is not what it was when the write was made: data/ changed it since`;
  }
  return undefined;
}

/**
 * The catalog with the overlay's writes applied in order, each only when every row it changed
 * is still what it replaced and the result passes the catalog's checks; a write that no
 * longer applies (its record removed or edited in data/ since) is left out and reported,
 * never a crash. The catalog is version `version`.
 *
 * @example
 * const { catalog, skipped } = replayWrites(base, writes, `${base.version}.${writes.length}`);
 */
export function replayWrites(base: Catalog, writes: readonly KeptWrite[], version: string): Replayed {
  const draft = new Draft(base);
  const applied: AppliedWrite[] = [];
  const skipped: Replayed['skipped'] = [];
  for (const write of writes) {
    const reason = stale(draft, write);
    if (reason) {
      skipped.push({ write, reason });
      continue;
    }
    const restore = draft.mark();
    const previous = write.changes.map((change) => current(draft, change));
    for (const change of write.changes) {
      if (change.language === undefined) draft.setRecord(change.family, change.uuid, change.after);
      else draft.setTranslation(change.family, change.uuid, change.language, change.after);
    }
    const { invalid, conflicts } = checkEdit(draft, write.changes);
    const problems = [...invalid, ...conflicts];
    if (problems.length) {
      restore();
      skipped.push({ write, reason: problems.map((p) => `${p.uuid ?? p.file}${p.path ?? ''}: ${p.message}`).join('; ') });
    } else applied.push({ write, previous });
  }
  const changes = draft.changes();
  return { catalog: changes.length ? applyChanges(base, changes, version) : base, changes, applied, skipped };
}
