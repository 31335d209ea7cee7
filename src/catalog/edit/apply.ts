import { Catalog } from '../catalog.ts';
import { family as familyOf, type FamilyName } from '../families.ts';
import { FamilyStore } from '../store.ts';
import type { CatalogRecord, Translation } from '../types.ts';
import { translationColumns, translationFields } from '../translation-columns.ts';
import type { RowChange } from './draft.ts';

/** A family's records and translations with `changes` made: untouched records keep their place, new ones follow. */
function changedStore(store: FamilyStore, changes: readonly RowChange[], languages: readonly string[]): FamilyStore {
  const { family } = store;
  const records = new Map<string, CatalogRecord | null>();
  for (const change of changes) {
    if (change.language === undefined) records.set(change.uuid, change.after as CatalogRecord | null);
  }
  if (languages.join() === store.languages.join() && ![...records.values()].includes(null)) {
    const byLanguage = new Map<string, Map<string, Translation | null>>();
    for (const change of changes) {
      if (change.language === undefined) continue;
      const set = byLanguage.get(change.language) ?? new Map<string, Translation | null>();
      byLanguage.set(change.language, set);
      set.set(change.uuid, change.after && translationFields(change.after, family.translation!.parentKey));
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

  const parentKey = family.translation?.parentKey;
  const entries = parentKey
    ? changes.flatMap((change) =>
        change.language === undefined
          ? []
          : [
              {
                uuid: change.uuid,
                language: change.language,
                fields: change.after && translationFields(change.after, parentKey),
              },
            ],
      )
    : [];
  const earlier = (uuid: string, language: string) => {
    const old = store.position(uuid);
    return old === undefined ? undefined : store.ownTranslation(old, language);
  };
  const translations = parentKey
    ? translationColumns(list, languages, entries, earlier)
    : new Map<string, (Translation | undefined)[]>();
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
    if (touched || (relanguaged && familyOf(name).translation))
      stores.set(name, changedStore(store, touched ?? [], languages));
  }
  return new Catalog(stores, languages, catalog.defaultLanguage, version, catalog.pictureFiles);
}
