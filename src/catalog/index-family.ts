import type { Family } from './families.ts';
import { FamilyStore } from './store.ts';
import { translationColumns, type TranslationEntry } from './translation-columns.ts';
import type { CatalogRecord } from './types.ts';

/** A family's rows as a store is built from them: its records, and its translations by record and language. */
export interface FamilyRows {
  records: CatalogRecord[];
  translations: TranslationEntry[];
}

/**
 * Indexes a family's checked rows into its store: the one way a store is built from rows, at
 * load and in a static site's worker (which reads the rows `familyRows` exported).
 *
 * @example
 * indexFamily(family('episodes'), { records, translations }, ['en-US', 'pt-BR'], 'en-US');
 */
export function indexFamily(
  family: Family,
  { records, translations }: FamilyRows,
  languages: string[],
  defaultLanguage: string,
): FamilyStore {
  const columns = family.translation
    ? translationColumns(records, languages, translations)
    : new Map<string, never[]>();
  return new FamilyStore(family, records, columns, languages, defaultLanguage);
}

/** A store's rows, as `indexFamily` takes them back. */
export function familyRows(store: FamilyStore): FamilyRows {
  const translations: TranslationEntry[] = [];
  store.records.forEach((record, position) => {
    for (const { language, fields } of store.translationsOf(position))
      translations.push({ uuid: record.uuid, language, fields });
  });
  return { records: [...store.records], translations };
}
