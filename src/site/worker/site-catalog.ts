import { Catalog } from '../../catalog/catalog.ts';
import { family, FAMILY_NAMES, type FamilyName } from '../../catalog/families.ts';
import { indexFamily, type FamilyRows } from '../../catalog/index-family.ts';
import type { FamilyStore } from '../../catalog/store.ts';
import { MANIFEST_PATH, type SiteManifest } from '../manifest.ts';

/** Reads a JSON file of the site by its path under the base. */
export type ReadSiteFile = (path: string) => Promise<unknown>;

/**
 * The catalog a site's worker serves: the manifest, then every family's rows, indexed as the
 * server indexes them (`indexFamily`). The export checked the data; nothing is checked again.
 *
 * @example
 * const { catalog, manifest } = await loadSiteCatalog((path) => fetch(base + path).then((r) => r.json()));
 */
export async function loadSiteCatalog(read: ReadSiteFile): Promise<{ catalog: Catalog; manifest: SiteManifest }> {
  const manifest = (await read(MANIFEST_PATH)) as SiteManifest;
  const { languages, defaultLanguage } = manifest;
  const stores = new Map<FamilyName, FamilyStore>();
  const rows = await Promise.all(
    FAMILY_NAMES.map(async (name) => {
      const parts = (await Promise.all(manifest.families[name].map(read))) as FamilyRows[];
      return {
        records: parts.flatMap((part) => part.records),
        translations: parts.flatMap((part) => part.translations),
      };
    }),
  );
  FAMILY_NAMES.forEach((name, i) => stores.set(name, indexFamily(family(name), rows[i]!, languages, defaultLanguage)));
  return { catalog: new Catalog(stores, languages, defaultLanguage, manifest.version), manifest };
}
