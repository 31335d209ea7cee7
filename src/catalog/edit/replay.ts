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
  /** A mark (new data, a sandbox reset) changes no row: replay passes over it. */
  mark?: unknown;
}

/** A kept write that applied, with the row each of its changes replaced (undefined: none). */
export interface AppliedWrite {
  write: KeptWrite;
  previous: (Row | undefined)[];
}

/**
 * What replaying the overlay gave: the catalog, its net changes over the base, what applied, what data/ already held
 * and what was left out.
 */
export interface Replayed {
  catalog: Catalog;
  changes: RowChange[];
  applied: AppliedWrite[];
  /**
   * Writes whose every row data/ already holds as the overlay left it: an export folded them, the overlay was not
   * emptied yet.
   */
  inData: KeptWrite[];
  skipped: { write: KeptWrite; reason: string }[];
}

const rowKey = (change: RowChange) => `${change.family} ${change.uuid} ${change.language ?? ''}`;

/** The row a change replaces, as the draft has it now. */
function current(draft: Draft, change: RowChange) {
  return change.language === undefined
    ? draft.record(change.family, change.uuid)
    : draft.translation(change.family, change.uuid, change.language);
}

/**
 * The rows `changes` replace, as `catalog` holds them (undefined: none).
 *
 * @example
 * rowsBefore(catalog, outcome.changes); // [{ uuid: '…', … }]
 */
export function rowsBefore(catalog: Catalog, changes: readonly RowChange[]): (Row | undefined)[] {
  const draft = new Draft(catalog);
  return changes.map((change) => current(draft, change));
}

/**
 * For each row the writes change, each fingerprint a write leaves it with → the index of the
 * last write leaving it so: a row holding what write `n` or a later one made of it already has
 * write `n` in it.
 */
function lastLeaving(writes: readonly KeptWrite[]): Map<string, Map<string | null, number>> {
  const rows = new Map<string, Map<string | null, number>>();
  writes.forEach((write, index) => {
    for (const change of write.changes) {
      const key = rowKey(change);
      const made = rows.get(key) ?? new Map<string | null, number>();
      rows.set(key, made);
      made.set(fingerprint(change.after), index);
    }
  });
  return rows;
}

function staleReason(change: RowChange): string {
  const family = FAMILIES.get(change.family)!;
  const file = change.language === undefined ? family.file : `${family.translation!.file} (${change.language})`;
  return (
    `${family.singular} '${change.uuid}' in ${file} is not what it was when the write was made: data/ changed it ` +
    `since`
  );
}

/**
 * The catalog with the overlay's writes applied in order. A change applies when its row is
 * still what it replaced; a row already holding what this write or a later one made of it is
 * left as it is (data/ has it: an export folded it, even if interrupted before it emptied the
 * overlay). A write with any other row, or whose result fails the catalog's checks, no longer
 * applies (its record removed or edited in data/ since): it is left out and reported, never a
 * crash. Marks are passed over. The catalog is version `version`.
 *
 * @example
 * const { catalog, skipped } = replayWrites(base, writes, `${base.version}.${writes.length}`);
 */
export function replayWrites(base: Catalog, writes: readonly KeptWrite[], version: string): Replayed {
  const draft = new Draft(base);
  const applied: AppliedWrite[] = [];
  const inData: KeptWrite[] = [];
  const skipped: Replayed['skipped'] = [];
  let made: Map<string, Map<string | null, number>> | undefined;
  /** The changes of write `index` still to make, or the first one that no longer applies. */
  const toMake = (write: KeptWrite, index: number): RowChange[] | { stale: RowChange } => {
    const changes: RowChange[] = [];
    for (const change of write.changes) {
      const now = fingerprint(current(draft, change));
      if (now === change.before) changes.push(change);
      else if (((made ??= lastLeaving(writes)).get(rowKey(change))!.get(now) ?? -1) < index) return { stale: change };
    }
    return changes;
  };
  writes.forEach((write, index) => {
    if (write.mark) return;
    const changes = toMake(write, index);
    if ('stale' in changes) return void skipped.push({ write, reason: staleReason(changes.stale) });
    if (changes.length === 0) return void inData.push(write);
    const restore = draft.mark();
    const previous = write.changes.map((change) => current(draft, change));
    for (const change of changes) {
      if (change.language === undefined) draft.setRecord(change.family, change.uuid, change.after);
      else draft.setTranslation(change.family, change.uuid, change.language, change.after);
    }
    const { invalid, conflicts } = checkEdit(draft, changes);
    const problems = [...invalid, ...conflicts];
    if (problems.length) {
      restore();
      skipped.push({
        write,
        reason: problems.map((p) => `${p.uuid ?? p.file}${p.path ?? ''}: ${p.message}`).join('; '),
      });
    } else applied.push({ write, previous });
  });
  const changes = draft.changes();
  return { catalog: changes.length ? applyChanges(base, changes, version) : base, changes, applied, inData, skipped };
}
