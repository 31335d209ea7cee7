import type { CheckedFamily } from './reference-check.ts';
import type { Problem } from './types.ts';

/**
 * The overview's rules: exactly one record, whose `languages` (the catalog's) include the
 * default language. Returns those languages, or undefined when they cannot be known (the
 * overview file already has problems, `broken`, or is not one record).
 *
 * @example
 * const { languages, problems } = checkOverview(checked.get('overview')!, 'en-US', false);
 */
export function checkOverview(
  overview: CheckedFamily,
  defaultLanguage: string,
  broken: boolean,
): { languages: string[] | undefined; problems: Problem[] } {
  const { file } = overview.family;
  const problems: Problem[] = [];
  if (!broken && overview.records.length !== 1) {
    const found = overview.records.length;
    problems.push({
      file,
      message:
        found === 0
          ? 'missing or empty: the catalog needs exactly one overview record'
          : `must hold exactly one record, found ${found}`,
    });
  }
  if (broken || overview.records.length !== 1) return { languages: undefined, problems };
  const languages = overview.records[0]!.record.languages as string[];
  if (!languages.includes(defaultLanguage)) {
    problems.push({
      file,
      record: 0,
      path: '/languages',
      message: `DEFAULT_LANGUAGE '${defaultLanguage}' is not one of the catalog's languages (${languages.join(', ')})`,
    });
  }
  return { languages, problems };
}
