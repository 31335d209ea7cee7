import type { CatalogRecord, Translation } from './types.ts';

/** The translated fields of a translation row: its parent's uuid and its language left out. */
export function translationFields(row: Record<string, unknown>, parentKey: string): Translation {
  const { [parentKey]: _parent, language: _language, ...fields } = row;
  return fields;
}

/** One translation row as the columns take it: `null` fields remove the record's translation. */
export interface TranslationEntry {
  uuid: string;
  language: string;
  fields: Translation | null;
}

/**
 * The translation columns of a family store, the one way they are built (at load and for a
 * write): per language, each record's translation by position. A column starts from
 * `earlier` (the translations a previous version held) or empty, then takes `rows`; rows of
 * a record or a language not listed are left out (the checks name those).
 *
 * @example
 * translationColumns(records, ['en-US', 'pt-BR'], [{ uuid, language: 'pt-BR', fields: { title: 'Sinal' } }]);
 * // Map { 'en-US' => [undefined, …], 'pt-BR' => [{ title: 'Sinal' }, …] }
 */
export function translationColumns(
  records: readonly CatalogRecord[],
  languages: readonly string[],
  rows: Iterable<TranslationEntry>,
  earlier?: (uuid: string, language: string) => Translation | undefined,
): Map<string, (Translation | undefined)[]> {
  const columns = new Map<string, (Translation | undefined)[]>();
  for (const language of languages) {
    columns.set(
      language,
      earlier
        ? records.map((record) => earlier(record.uuid, language))
        : new Array<Translation | undefined>(records.length),
    );
  }
  const position = new Map(records.map((record, i) => [record.uuid, i]));
  for (const { uuid, language, fields } of rows) {
    const column = columns.get(language);
    const at = position.get(uuid);
    if (column && at !== undefined) column[at] = fields ?? undefined;
  }
  return columns;
}
