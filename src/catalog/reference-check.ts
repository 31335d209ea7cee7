import { isFamilyName, type Family, type FamilyName } from './families.ts';
import type { Problem } from './types.ts';

/** A schema-valid element of a file, with its 0-based position there. */
export interface Checked {
  index: number;
  record: Record<string, unknown>;
}

/** Schema-valid content of a data directory, per family. */
export interface CheckedFamily {
  family: Family;
  records: Checked[];
  translations: Checked[];
  /** Uuids of every record of the family file, schema-valid or not. */
  uuids: Set<string>;
  /** The family file exists but could not be read as an array: relations into it go unjudged. */
  unreadable: boolean;
}

const HREF = /^\/api\/v1\/([a-z]+)\/([^/]+)$/;

/**
 * Checks what a schema cannot: unique uuids, hrefs matching uuids, relations resolving to a
 * record of the right family, translation rows pointing at existing parents, one row per
 * (parent, language), languages listed by the overview, and a default-language row for every
 * translated record.
 */
export function checkReferences(
  checked: ReadonlyMap<FamilyName, CheckedFamily>,
  /** The overview's languages; undefined when the overview itself is broken. */
  languages: readonly string[] | undefined,
  defaultLanguage: string,
): Problem[] {
  const problems: Problem[] = [];

  for (const { family, records } of checked.values()) {
    const firstSeen = new Map<string, number>();
    for (const { index, record } of records) {
      const uuid = record.uuid as string;
      const at = { file: family.file, record: index, uuid };
      const earlier = firstSeen.get(uuid);
      if (earlier !== undefined) problems.push({ ...at, message: `duplicate uuid (first used by record ${earlier})` });
      else firstSeen.set(uuid, index);
      const expected = family.name === 'overview' ? `/api/v1/overview/${uuid}` : `/api/v1/${family.name}/${uuid}`;
      if (record.href !== expected) {
        problems.push({ ...at, path: '/href', message: `href '${record.href}' does not match the uuid: expected '${expected}'` });
      }
    }
  }

  for (const { family, records } of checked.values()) {
    const relations = [...family.fields.values()].filter((f) => f.relation);
    for (const { index, record } of records) {
      for (const field of relations) {
        const value = record[field.name];
        const hrefs = field.list ? ((value as string[] | undefined) ?? []) : value === undefined ? [] : [value as string];
        hrefs.forEach((href, i) => {
          const path = field.list ? `/${field.name}/${i}` : `/${field.name}`;
          const problem = relationProblem(href, field.name, field.relation!, checked);
          if (problem) problems.push({ file: family.file, record: index, uuid: record.uuid as string, path, message: problem });
        });
      }
    }
  }

  for (const { family, records, translations } of checked.values()) {
    if (!family.translation) continue;
    const { file, parentKey } = family.translation;
    const parents = checked.get(family.name)!.uuids;
    const rows = new Map<string, number>();
    for (const { index, record: row } of translations) {
      const parent = row[parentKey] as string;
      const language = row.language as string;
      if (!parents.has(parent)) {
        problems.push({ file, record: index, path: `/${parentKey}`, message: `'${parent}' is not the uuid of any ${family.name} record` });
      }
      if (languages && !languages.includes(language)) {
        problems.push({ file, record: index, path: '/language', message: `'${language}' is not one of the catalog's languages (overview.languages: ${languages.join(', ')})` });
      }
      const key = `${parent} ${language}`;
      const first = rows.get(key);
      if (first !== undefined) {
        problems.push({ file, record: index, message: `second ${language} translation of ${parent} (the first is row ${first})` });
      } else rows.set(key, index);
    }
    // Without a usable overview, or with a default language it does not list, the default
    // language rows cannot be judged; those problems are reported on the overview instead.
    for (const { index, record } of languages?.includes(defaultLanguage) ? records : []) {
      if (!rows.has(`${record.uuid} ${defaultLanguage}`)) {
        problems.push({ file: family.file, record: index, uuid: record.uuid as string, message: `has no ${defaultLanguage} (default language) translation in ${file}` });
      }
    }
  }
  return problems;
}

function relationProblem(href: string, field: string, target: FamilyName, checked: ReadonlyMap<FamilyName, CheckedFamily>): string | undefined {
  const match = HREF.exec(href);
  if (!match || !isFamilyName(match[1]!)) return `'${href}' is not an href of the form /api/v1/${target}/<uuid>`;
  if (match[1] !== target) return `'${href}' points into ${match[1]}: ${field} must point to ${target}`;
  const family = checked.get(target)!;
  if (!family.unreadable && !family.uuids.has(match[2]!)) return `'${href}' points to no existing ${target} record`;
  return undefined;
}
