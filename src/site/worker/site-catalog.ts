import { Catalog } from '../../catalog/catalog.ts';
import { family, FAMILY_NAMES, type FamilyName } from '../../catalog/families.ts';
import { indexFamily, type FamilyRows } from '../../catalog/index-family.ts';
import type { FamilyStore } from '../../catalog/store.ts';
import type { SiteManifest } from '../manifest.ts';

/** Reads a JSON file of the site by its path under the base. */
export type ReadSiteFile = (path: string) => Promise<unknown>;

/**
 * The catalog a site's worker serves, its families loaded when a request first needs them
 * (`need`): a page asking one record downloads that record's family, not the whole catalog.
 * Each family's rows are indexed as the server indexes them (`indexFamily`); the export checked
 * them, nothing is checked again. What the server reads of every family (`namesPictures`,
 * `counts`) comes from the manifest, made by the export from the whole catalog.
 *
 * @example
 * const catalog = new SiteCatalog(manifest, (path) => fetch(base + path).then((r) => r.json()));
 * await catalog.need(['actors']);
 */
export class SiteCatalog extends Catalog {
  private readonly loading = new Map<FamilyName, Promise<void>>();
  private readonly loaded: Map<FamilyName, FamilyStore>;

  constructor(
    private readonly manifest: SiteManifest,
    private readonly read: ReadSiteFile,
  ) {
    const loaded = new Map<FamilyName, FamilyStore>();
    super(loaded, manifest.languages, manifest.defaultLanguage, manifest.version);
    this.loaded = loaded;
  }

  /** Loads the families not loaded yet, each once however many requests wait for it. */
  need(names: Iterable<FamilyName>): Promise<void[]> {
    return Promise.all([...names].map((name) => this.load(name)));
  }

  private load(name: FamilyName): Promise<void> {
    let loading = this.loading.get(name);
    if (!loading) {
      loading = Promise.all(this.manifest.families[name].map(this.read)).then((parts) => {
        const rows = parts as FamilyRows[];
        const all = { records: rows.flatMap((p) => p.records), translations: rows.flatMap((p) => p.translations) };
        this.loaded.set(name, indexFamily(family(name), all, this.manifest.languages, this.manifest.defaultLanguage));
      });
      loading.catch(() => this.loading.delete(name));
      this.loading.set(name, loading);
    }
    return loading;
  }

  override store(name: FamilyName): FamilyStore {
    const store = this.loaded.get(name);
    if (!store) throw new Error(`the site's worker used the ${name} family before loading it`);
    return store;
  }

  override get namesPictures(): boolean {
    return this.manifest.namesPictures;
  }

  override counts(): Record<Exclude<FamilyName, 'overview'>, number> {
    return this.manifest.counts;
  }
}

/** Every family: what GraphQL, `expand` and a picture another family names may reach. */
export const ALL_FAMILIES: readonly FamilyName[] = FAMILY_NAMES;
