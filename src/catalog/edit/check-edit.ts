import { checkConsistency } from '../consistency-check.ts';
import { FAMILIES, type FamilyName } from '../families.ts';
import { checkReferences, type Checked, type CheckedFamily } from '../reference-check.ts';
import { checkSchema } from '../schema-check.ts';
import type { Problem } from '../types.ts';
import { Draft, type RowChange } from './draft.ts';

/** What a write's check found: problems of the rows themselves (400) and disagreements with other records (409). */
export interface EditProblems {
  invalid: Problem[];
  conflicts: Problem[];
}

type Scope = Map<FamilyName, Set<string>>;

function scopeOf(changes: readonly RowChange[]): Scope {
  const scope: Scope = new Map([...FAMILIES.keys()].map((name) => [name, new Set<string>()]));
  for (const change of changes) scope.get(change.family)!.add(change.uuid);
  return scope;
}

/** A season's numbering, chain and totals involve all its episodes: a change to one brings in the rest. */
function withSeasons(scope: Scope, drafts: readonly Draft[]): Scope {
  const seasons = new Set<string>();
  for (const draft of drafts) {
    for (const uuid of scope.get('seasons')!) seasons.add(`/api/v1/seasons/${uuid}`);
    for (const uuid of scope.get('episodes')!) {
      const season = draft.record('episodes', uuid)?.season;
      if (typeof season === 'string') seasons.add(season);
    }
  }
  const wider: Scope = new Map([...scope].map(([name, uuids]) => [name, new Set(uuids)]));
  for (const href of seasons) {
    wider.get('seasons')!.add(href.slice('/api/v1/seasons/'.length));
    for (const draft of drafts) for (const uuid of draft.linking('episodes', 'season', href)) wider.get('episodes')!.add(uuid);
  }
  return wider;
}

/** The scoped records and rows of `draft`, shaped as the data checks take them. */
function checkedOf(draft: Draft, scope: Scope): Map<FamilyName, CheckedFamily> {
  const checked = new Map<FamilyName, CheckedFamily>();
  for (const family of FAMILIES.values()) {
    const records: Checked[] = [];
    const translations: Checked[] = [];
    for (const uuid of scope.get(family.name)!) {
      const record = draft.record(family.name, uuid);
      if (record) records.push({ index: records.length, record });
      if (!family.translation) continue;
      for (const language of draft.languages) {
        const row = draft.translation(family.name, uuid, language);
        if (row) translations.push({ index: translations.length, record: row });
      }
    }
    const uuids = { has: (uuid: string) => draft.record(family.name, uuid) !== undefined };
    checked.set(family.name, { family, records, translations, uuids, unreadable: false });
  }
  return checked;
}

const keyOf = (problem: Problem) => `${problem.uuid} ${problem.path} ${problem.message}`;

/**
 * Checks what a draft changes with the catalog's own checks (the boot's and `npm run
 * check-data`'s): the schema of every changed record and row, the references from and to
 * them, and the consistency of what they belong to (both sides of two-sided links, a
 * season's numbering, chain and totals). Only the changed records and what they involve are
 * looked at, so a write costs the same on a catalog of any size. A consistency warning the
 * catalog already had before the write is not the write's fault and does not refuse it.
 *
 * @example
 * const { invalid, conflicts } = checkEdit(draft);
 */
export function checkEdit(draft: Draft, changes: readonly RowChange[] = draft.changes()): EditProblems {
  const scope = scopeOf(changes);
  const checked = checkedOf(draft, scope);
  const invalid: Problem[] = [];
  for (const { family, records, translations } of checked.values()) {
    invalid.push(...checkSchema(family.file, records.map((r) => r.record), family).problems);
    if (family.translation) invalid.push(...checkSchema(family.translation.file, translations.map((r) => r.record), family).problems);
  }
  const references = checkReferences(checked, draft.languages, draft.catalog.defaultLanguage);
  const conflicts = references.filter((problem) => problem.kind === 'conflict');
  invalid.push(...references.filter((problem) => problem.kind !== 'conflict' && problem.severity !== 'note'));
  if (invalid.length > 0) return { invalid, conflicts };

  const base = new Draft(draft.catalog);
  const wider = withSeasons(scope, [base, draft]);
  const known = new Set(checkConsistency(checkedOf(base, wider)).map(keyOf));
  conflicts.push(...checkConsistency(checkedOf(draft, wider)).filter((problem) => !known.has(keyOf(problem))));
  return { invalid, conflicts };
}
