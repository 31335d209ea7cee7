import type { Family } from '../../src/catalog/families.ts';

type Row = Record<string, unknown>;

/** A new record's translation rows, by language, and what they still lack. */
export interface NewTranslations {
  rows: Row[];
  todo: string[];
  /** Which of the catalog's languages the record has no row in, and how to add one; none when it has them all. */
  note?: string;
}

/**
 * The language an option's suffix names (`--title.pt-BR`), spelled as the catalog lists it;
 * throws naming the option when the catalog has no such language.
 */
function languageOf(option: string, tag: string, languages: string[]): string {
  const found = languages.find((language) => language.toLowerCase() === tag.toLowerCase());
  if (!found)
    throw new Error(
      `--${option}: '${tag}' is not one of the catalog's languages (${languages.join(', ')}); add it to overview.json's languages first`,
    );
  return found;
}

/**
 * The translation rows of a new record of `family`: one in the default language, always, and
 * one in each other language only when `values` give it a field (`title.pt-BR`), since a row
 * without its required fields is invalid. `values` maps a translated field, optionally suffixed
 * by `.<language>`, to its typed value; `languages` are the catalog's (`overview.languages`).
 *
 * @example
 * newTranslations(family('locations'), uuid, { name: 'Old Cannery', 'name.pt-BR': 'Antiga Fábrica' }, ['en-US', 'pt-BR'], 'en-US');
 * // rows: the en-US and pt-BR rows; note: undefined
 */
export function newTranslations(
  family: Family,
  uuid: string,
  values: Row,
  languages: string[],
  defaultLanguage: string,
): NewTranslations {
  const { parentKey, file, schema } = family.translation!;
  const byLanguage = new Map<string, Row>([[defaultLanguage, { [parentKey]: uuid, language: defaultLanguage }]]);
  for (const [option, value] of Object.entries(values)) {
    const dot = option.indexOf('.');
    const language = dot < 0 ? defaultLanguage : languageOf(option, option.slice(dot + 1), languages);
    const row = byLanguage.get(language) ?? { [parentKey]: uuid, language };
    row[dot < 0 ? option : option.slice(0, dot)] = value;
    byLanguage.set(language, row);
  }
  const required = (schema.required ?? []).filter((f) => f !== parentKey && f !== 'language');
  const todo: string[] = [];
  for (const [language, row] of byLanguage) {
    const missing = required.filter((f) => row[f] === undefined);
    if (missing.length) todo.push(`${file}: the ${language} row needs ${missing.join(', ')}`);
  }
  const untranslated = languages.filter((language) => !byLanguage.has(language));
  const example = `--${required[0] ?? family.translation!.fields[0]}.${untranslated[0]}`;
  const note = `not yet in ${untranslated.join(', ')}: served in ${defaultLanguage} there until you add a row (${example} "…", or by hand in ${file})`;
  return { rows: [...byLanguage.values()], todo, ...(untranslated.length ? { note } : {}) };
}
