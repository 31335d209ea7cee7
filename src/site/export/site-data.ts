import type { Catalog } from '../../catalog/catalog.ts';
import type { FamilyName } from '../../catalog/families.ts';
import { familyRows, type FamilyRows } from '../../catalog/index-family.ts';

/** Records per part of a family's rows: a part of the largest records stays far below a host's 25 MiB a file. */
const RECORDS_PER_PART = 10_000;

/**
 * Each family's rows as the worker reads them back (`indexFamily`), in parts of at most
 * 10,000 records with their translations: file name → JSON text, and each family's files.
 *
 * @example
 * const { files, families } = siteData(catalog); // families.actors: ['site/data/actors-0.json']
 */
export function siteData(catalog: Catalog): { files: Map<string, string>; families: Record<FamilyName, string[]> } {
  const files = new Map<string, string>();
  const families = {} as Record<FamilyName, string[]>;
  for (const [name, store] of catalog.stores) {
    const { records, translations } = familyRows(store);
    const parts: string[] = [];
    for (let from = 0; from === 0 || from < records.length; from += RECORDS_PER_PART) {
      const part = records.slice(from, from + RECORDS_PER_PART);
      const uuids = new Set(part.map((record) => record.uuid));
      const rows: FamilyRows = { records: part, translations: translations.filter((row) => uuids.has(row.uuid)) };
      const file = `site/data/${name}-${parts.length}.json`;
      files.set(file, JSON.stringify(rows));
      parts.push(file);
    }
    families[name] = parts;
  }
  return { files, families };
}
