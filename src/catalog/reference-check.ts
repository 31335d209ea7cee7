import { canonicalLanguage } from '../lib/formats.ts';
import { isFamilyName, type Family, type FamilyName } from './families.ts';
import { hrefOf, isHrefOf, parseHref, uuidIn } from './href.ts';
import type { Problem } from './types.ts';

/** An element of a file that is an object (valid or not), with its 0-based position there. */
export interface Checked {
  index: number;
  record: Record<string, unknown>;
}

/** The content of a data directory, per family: every object of its files, valid or not. */
export interface CheckedFamily {
  family: Family;
  records: Checked[];
  translations: Checked[];
  /** Uuids of every record of the family file (a write's check looks them up in the draft). */
  uuids: Pick<ReadonlySet<string>, 'has'>;
  /** The family file exists but could not be read as an array: checks against it are skipped. */
  unreadable: boolean;
}

/**
 * Why a well-formed language tag cannot be used: it is not one of the overview's `languages`.
 *
 * @example
 * unlistedLanguage('fr-FR', ['en-US', 'pt-BR']);
 * // "'fr-FR' is not one of the catalog's languages (overview.languages: en-US, pt-BR)"
 */
export const unlistedLanguage = (language: string, languages: readonly string[]): string =>
  `'${language}' is not one of the catalog's languages (overview.languages: ${languages.join(', ')})`;

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** The hrefs a relation field holds, ignoring what is not text (the schema check names those). */
function hrefsOf(value: unknown): { href: string; at: string }[] {
  if (typeof value === 'string') return [{ href: value, at: '' }];
  if (!Array.isArray(value)) return [];
  return value.flatMap((item, i) => (typeof item === 'string' ? [{ href: item, at: `/${i}` }] : []));
}

/**
 * Checks what a schema cannot, on every record whatever else is wrong with it: unique uuids,
 * hrefs matching uuids, relations resolving to a record of the right family, translation
 * rows pointing at existing parents, one row per (parent, language), languages listed by the
 * overview, and a default-language row for every translated record. Checks against a file
 * that does not parse are skipped, and one note per such file says how many.
 */
export function checkReferences(
  checked: ReadonlyMap<FamilyName, CheckedFamily>,
  /** The overview's languages; undefined when the overview itself is broken. */
  languages: readonly string[] | undefined,
  defaultLanguage: string,
): Problem[] {
  const problems: Problem[] = [];
  const skipped = new Map<FamilyName, { rows: number; relations: number }>();
  const skip = (name: FamilyName, what: 'rows' | 'relations') => {
    const counts = skipped.get(name) ?? { rows: 0, relations: 0 };
    counts[what]++;
    skipped.set(name, counts);
  };

  for (const { family, records } of checked.values()) {
    const firstSeen = new Map<string, number>();
    for (const { index, record } of records) {
      const uuid = text(record.uuid);
      if (!uuid) continue;
      const at = { file: family.file, record: index, uuid };
      const earlier = firstSeen.get(uuid);
      if (earlier !== undefined)
        problems.push({
          ...at,
          path: '/uuid',
          message: `duplicate uuid (first used by record ${earlier}); give this record a new one`,
        });
      else firstSeen.set(uuid, index);
      const href = record.href;
      if (href !== undefined && !isHrefOf(href, family.name, uuid)) {
        problems.push({
          ...at,
          path: '/href',
          message: `href '${String(href)}' does not match the uuid: expected '${hrefOf(family.name, uuid)}'`,
        });
      }
    }
  }

  for (const { family, records } of checked.values()) {
    const relations = [...family.fields.values()].filter((f) => f.relation);
    for (const { index, record } of records) {
      for (const field of relations) {
        for (const { href, at } of hrefsOf(record[field.name])) {
          const target = checked.get(field.relation!)!;
          if (target.unreadable && parseHref(href)?.family === field.relation) {
            skip(field.relation!, 'relations');
            continue;
          }
          const problem = relationProblem(href, field.name, field.relation!, target);
          if (problem)
            problems.push({
              file: family.file,
              record: index,
              ...(text(record.uuid) ? { uuid: text(record.uuid)! } : {}),
              path: `/${field.name}${at}`,
              ...problem,
            });
        }
      }
    }
  }

  for (const { family, records, translations, unreadable, uuids: parents } of checked.values()) {
    if (!family.translation) continue;
    const { file, parentKey } = family.translation;
    const rows = new Map<string, number>();
    for (const { index, record: row } of translations) {
      const parent = text(row[parentKey]);
      const language = text(row.language);
      const at = { file, record: index, ...(parent ? { uuid: parent } : {}) };
      if (parent !== undefined) {
        if (unreadable) skip(family.name, 'rows');
        else if (!parents.has(parent))
          problems.push({
            ...at,
            path: `/${parentKey}`,
            message: `'${parent}' is not the uuid of any ${family.name} record`,
          });
      }
      // A malformed tag is one problem, the schema's; only a well-formed one is looked up.
      if (
        language !== undefined &&
        languages &&
        canonicalLanguage(language) === language &&
        !languages.includes(language)
      ) {
        problems.push({ ...at, path: '/language', message: unlistedLanguage(language, languages) });
      }
      if (parent === undefined || language === undefined) continue;
      const key = `${parent} ${language}`;
      const first = rows.get(key);
      if (first !== undefined)
        problems.push({
          ...at,
          message: `second ${language} translation of ${parent} (the first is row ${first}); merge the two rows`,
        });
      else rows.set(key, index);
    }
    // Without a usable overview, or with a default language it does not list, the default
    // language rows cannot be judged; those problems are reported on the overview instead.
    for (const { index, record } of languages?.includes(defaultLanguage) ? records : []) {
      const uuid = text(record.uuid);
      if (uuid && !rows.has(`${uuid} ${defaultLanguage}`)) {
        problems.push({
          file: family.file,
          record: index,
          uuid,
          kind: 'conflict',
          message: `has no ${defaultLanguage} (default language) translation in ${file}; add a row for it`,
        });
      }
    }
  }

  for (const [name, { rows, relations }] of skipped) {
    const parts = [
      ...(rows ? [`${rows} translation row${rows === 1 ? '' : 's'} could not be matched to records`] : []),
      ...(relations ? [`${relations} relation${relations === 1 ? '' : 's'} into it could not be resolved`] : []),
    ];
    const total = rows + relations;
    problems.push({
      file: checked.get(name)!.family.file,
      severity: 'note',
      message: `${total} check${total === 1 ? '' : 's'} skipped until this file can be read: ${parts.join(', ')}`,
    });
  }
  return problems;
}

function relationProblem(
  href: string,
  field: string,
  target: FamilyName,
  family: CheckedFamily,
): Pick<Problem, 'message' | 'kind'> | undefined {
  // The common case, a good href, is settled without a regular expression.
  const uuid = uuidIn(href, target);
  if (uuid !== undefined && family.uuids.has(uuid)) return undefined;
  const match = parseHref(href);
  if (!match || !isFamilyName(match.family))
    return { message: `'${href}' is not an href of the form ${hrefOf(target, '<uuid>')}` };
  if (match.family !== target)
    return { message: `'${href}' points into ${match.family}: ${field} must point to ${target}` };
  if (!family.uuids.has(match.uuid))
    return { message: `'${href}' points to no existing ${target} record`, kind: 'conflict' };
  return undefined;
}
