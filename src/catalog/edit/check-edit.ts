import { checkConsistency } from '../consistency-check.ts';
import { FAMILIES, type FamilyName } from '../families.ts';
import { checkOverview } from '../overview-check.ts';
import { checkAcrossRecords } from '../cross-record-check.ts';
import type { Checked, CheckedFamily } from '../reference-check.ts';
import { checkSchema } from '../schema-check.ts';
import { hrefOf, uuidIn } from '../href.ts';
import type { Problem } from '../types.ts';
import { Draft, type RowChange } from './draft.ts';

/**
 * What a write's check found: problems of the rows it sets (400) and disagreements with the rest of the catalog (409).
 */
export interface EditProblems {
  invalid: Problem[];
  conflicts: Problem[];
}

type Scope = Map<FamilyName, Set<string>>;

/**
 * The records a write involves: those it changes, and those showing a picture drawn for a
 * record it deletes (their picture would be gone).
 */
function scopeOf(draft: Draft, changes: readonly RowChange[]): Scope {
  const scope: Scope = new Map([...FAMILIES.keys()].map((name) => [name, new Set<string>()]));
  for (const change of changes) {
    scope.get(change.family)!.add(change.uuid);
    if (change.language !== undefined || change.after !== null) continue;
    for (const shower of draft.showingDrawnPictures(change.family, change.uuid))
      scope.get(shower.family)!.add(shower.uuid);
  }
  return scope;
}

/** A season's numbering, chain and totals involve all its episodes: a change to one brings in the rest. */
function withSeasons(scope: Scope, drafts: readonly Draft[]): Scope {
  const seasons = new Set<string>();
  for (const draft of drafts) {
    for (const uuid of scope.get('seasons')!) seasons.add(hrefOf('seasons', uuid));
    for (const uuid of scope.get('episodes')!) {
      const season = draft.record('episodes', uuid)?.season;
      if (typeof season === 'string') seasons.add(season);
    }
  }
  const wider: Scope = new Map([...scope].map(([name, uuids]) => [name, new Set(uuids)]));
  for (const href of seasons) {
    const uuid = uuidIn(href, 'seasons');
    if (uuid !== undefined) wider.get('seasons')!.add(uuid);
    for (const draft of drafts)
      for (const uuid of draft.linking('episodes', 'season', href)) wider.get('episodes')!.add(uuid);
  }
  return wider;
}

/**
 * Records with a translation row in a language the draft drops from the overview: those rows
 * are checked (and refuse the write) though the write does not change them.
 */
function rowsInDroppedLanguages(draft: Draft): Scope {
  const dropped = draft.catalog.languages.filter((language) => !draft.languages.includes(language));
  const scope: Scope = new Map([...FAMILIES.keys()].map((name) => [name, new Set<string>()]));
  for (const family of FAMILIES.values()) {
    if (!family.translation || dropped.length === 0) continue;
    const store = draft.catalog.store(family.name);
    store.records.forEach((record, position) => {
      if (dropped.some((language) => store.ownTranslation(position, language)))
        scope.get(family.name)!.add(record.uuid);
    });
  }
  return scope;
}

/**
 * The scoped records and rows of `draft`, shaped as the data checks take them: the rows of
 * scoped records in every language the catalog had, has, or a change names, so a row in a
 * language the catalog does not list is seen (and refused).
 */
function checkedOf(
  draft: Draft,
  scope: Scope,
  rowScope: Scope = scope,
  changes: readonly RowChange[] = [],
): Map<FamilyName, CheckedFamily> {
  const languages = new Set([
    ...draft.catalog.languages,
    ...draft.languages,
    ...changes.flatMap((change) => change.language ?? []),
  ]);
  const checked = new Map<FamilyName, CheckedFamily>();
  for (const family of FAMILIES.values()) {
    const records: Checked[] = [];
    const translations: Checked[] = [];
    for (const uuid of scope.get(family.name)!) {
      const record = draft.record(family.name, uuid);
      if (record) records.push({ index: records.length, record });
    }
    for (const uuid of family.translation ? new Set([...scope.get(family.name)!, ...rowScope.get(family.name)!]) : []) {
      for (const language of languages) {
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
 * The overview's rules on the draft's overview; its problems are named by its uuid, as the write's answer names
 * records.
 */
function overviewProblems(
  draft: Draft,
  checked: ReadonlyMap<FamilyName, CheckedFamily>,
  broken: boolean,
): { languages: string[] | undefined; problems: Problem[] } {
  const { uuid } = draft.catalog.overview;
  const overview = { ...checked.get('overview')!, records: [{ index: 0, record: draft.record('overview', uuid)! }] };
  const { languages, problems } = checkOverview(overview, draft.catalog.defaultLanguage, broken);
  return { languages, problems: problems.map((problem) => ({ uuid, ...problem })) };
}

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
  const scope = scopeOf(draft, changes);
  const checked = checkedOf(draft, scope, rowsInDroppedLanguages(draft), changes);
  const problems: Problem[] = [];
  for (const { family, records, translations } of checked.values()) {
    problems.push(
      ...checkSchema(
        family.file,
        records.map((r) => r.record),
        family,
      ).problems,
    );
    if (family.translation)
      problems.push(
        ...checkSchema(
          family.translation.file,
          translations.map((r) => r.record),
          family,
        ).problems,
      );
  }
  const overview = overviewProblems(
    draft,
    checked,
    problems.some((problem) => problem.file === FAMILIES.get('overview')!.file),
  );
  problems.push(
    ...overview.problems,
    ...checkAcrossRecords(checked, {
      languages: overview.languages,
      defaultLanguage: draft.catalog.defaultLanguage,
      pictures: {
        hasFile: (path) => draft.catalog.pictureFiles.has(path),
        hasRecord: (family, uuid) => draft.record(family, uuid) !== undefined,
        deletes: (family, uuid) => draft.catalog.store(family).position(uuid) !== undefined,
        creates: (family, uuid) => draft.catalog.store(family).position(uuid) === undefined,
      },
    }).filter((problem) => problem.severity !== 'note'),
  );
  // A problem of a row the write sets is the request's (400); one it leaves on a row it does not set, or a
  // broken link between records, is a conflict with the catalog as it is (409).
  const fileOf = ({ family, language }: RowChange) =>
    language === undefined ? FAMILIES.get(family)!.file : FAMILIES.get(family)!.translation!.file;
  const written = new Set(changes.map((change) => `${fileOf(change)} ${change.uuid}`));
  const isWritten = (problem: Problem) => written.has(`${problem.file} ${problem.uuid}`);
  const invalid = problems.filter((problem) => problem.kind !== 'conflict' && isWritten(problem));
  const conflicts = problems.filter((problem) => problem.kind === 'conflict' || !isWritten(problem));
  if (invalid.length > 0) return { invalid, conflicts };

  const base = new Draft(draft.catalog);
  const wider = withSeasons(scope, [base, draft]);
  const known = new Set(checkConsistency(checkedOf(base, wider)).map(keyOf));
  conflicts.push(...checkConsistency(checkedOf(draft, wider)).filter((problem) => !known.has(keyOf(problem))));
  return { invalid, conflicts };
}
