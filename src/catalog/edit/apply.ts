import { Catalog } from '../catalog.ts';
import { family as familyOf, type FamilyName } from '../families.ts';
import { FamilyStore } from '../store.ts';
import type { CatalogRecord, Translation } from '../types.ts';
import type { Row, RowChange } from './draft.ts';

/** The translated fields of a translation row (its parent's uuid and its language left out). */
function fieldsOf(row: Row, parentKey: string): Translation {
  const { [parentKey]: _parent, language: _language, ...fields } = row;
  return fields;
}

/** A family's records and translations with `changes` made: untouched records keep their place, new ones follow. */
function changedStore(store: FamilyStore, changes: readonly RowChange[], languages: readonly string[]): FamilyStore {
  const { family } = store;
  const records = new Map<string, CatalogRecord | null>();
  const rows = new Map<string, Row | null>();
  for (const change of changes) {
    if (change.language === undefined) records.set(change.uuid, change.after as CatalogRecord | null);
    else rows.set(`${change.uuid} ${change.language}`, change.after);
  }
  if (languages.join() === store.languages.join() && ![...records.values()].includes(null)) {
    const byLanguage = new Map<string, Map<string, Translation | null>>();
    for (const change of changes) {
      if (change.language === undefined) continue;
      const set = byLanguage.get(change.language) ?? new Map<string, Translation | null>();
      byLanguage.set(change.language, set);
      set.set(change.uuid, change.after && fieldsOf(change.after, family.translation!.parentKey));
    }
    return store.patched(records as Map<string, CatalogRecord>, byLanguage);
  }
  const list: CatalogRecord[] = [];
  for (const record of store.records) {
    const changed = records.get(record.uuid);
    if (changed === undefined) list.push(record);
    else if (changed !== null) list.push(changed);
  }
  for (const [uuid, record] of records) if (record && store.position(uuid) === undefined) list.push(record);

  const translations = new Map<string, (Translation | undefined)[]>();
  if (family.translation) {
    const { parentKey } = family.translation;
    for (const language of languages) {
      const column = new Array<Translation | undefined>(list.length);
      list.forEach((record, position) => {
        const row = rows.get(`${record.uuid} ${language}`);
        if (row === undefined) {
          const old = store.position(record.uuid);
          column[position] = old === undefined ? undefined : store.ownTranslation(old, language);
        } else if (row !== null) {
          column[position] = fieldsOf(row, parentKey);
        }
      });
      translations.set(language, column);
    }
  }
  return new FamilyStore(family, list, translations, languages, store.defaultLanguage);
}

/**
 * The catalog with `changes` made, as version `version`. Only the families they touch get
 * new stores (their indexes are built again as queries need them); the others are shared
 * with `catalog`, indexes and all. A change of the overview's languages rebuilds every
 * translated family, whose translations are kept per language.
 *
 * @example
 * const next = applyChanges(catalog, draft.changes(), `${catalog.version}.1`);
 */
export function applyChanges(catalog: Catalog, changes: readonly RowChange[], version: string): Catalog {
  const byFamily = new Map<FamilyName, RowChange[]>();
  for (const change of changes) byFamily.set(change.family, [...(byFamily.get(change.family) ?? []), change]);
  const overview = changes.find((change) => change.family === 'overview' && change.language === undefined)?.after;
  const languages = (overview?.languages as string[] | undefined) ?? catalog.languages;
  const relanguaged = languages.join() !== catalog.languages.join();
  const stores = new Map(catalog.stores);
  for (const [name, store] of catalog.stores) {
    const touched = byFamily.get(name);
    if (touched || (relanguaged && familyOf(name).translation)) stores.set(name, changedStore(store, touched ?? [], languages));
  }
  return new Catalog(stores, languages, catalog.defaultLanguage, version, catalog.pictureFiles);
}
