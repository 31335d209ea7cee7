import type { FamilyName } from '../catalog/families.ts';
import type { GraphQLEngineOptions } from '../graphql/engine.ts';
import type { About } from '../reads/types.ts';

/** Where, under the site's base, the exporter writes the manifest the worker starts from. */
export const MANIFEST_PATH = 'site/manifest.json';

/** An answer of the server the export saved as it was (the endpoint list, the OpenAPI document, `ping`). */
export interface FixedAnswer {
  /** The file under the base holding its body. */
  file: string;
  type: string;
  /** Set for an answer of the server's response cache, which has an ETag too; `ping` has neither. */
  cacheControl?: string;
}

/**
 * What a static site's worker reads first: the catalog's languages and settings, where each
 * family's rows are, the answers saved whole, and the files to keep for offline use.
 */
export interface SiteManifest {
  /** The catalog's version: a new export with other data is a new worker cache. */
  version: string;
  languages: string[];
  defaultLanguage: string;
  cacheSeconds: number;
  maxPageSize: number;
  maxCsvRows: number;
  about: About;
  /** The files of each family's rows (`FamilyRows`, in parts a host takes), under the base. */
  families: Record<FamilyName, string[]>;
  /** Answers saved whole, by API path. */
  fixed: Record<string, FixedAnswer>;
  /** Records per family, overview excluded (the overview's `data_count`), so no family is loaded to count. */
  counts: Record<Exclude<FamilyName, 'overview'>, number>;
  /** Whether a record names a picture of the catalog's own (the server's `Catalog.namesPictures`). */
  namesPictures: boolean;
  /**
   * Pictures named by a record of another family than the one in their path (a character showing its actor's portrait).
   */
  sharedPictures: string[];
  /** Bytes of every family's rows: a catalog this small is kept whole for offline use. */
  dataBytes: number;
  /**
   * The pictures that are files of the data (a contributor's), by path: every other picture a record names is drawn by
   * the worker.
   */
  pictureFiles: string[];
  /** Files under the base the worker keeps at install, so the site works offline. */
  shell: string[];
  /** GraphQL's limits, as the exporting server's configuration set them. */
  graphql: Omit<GraphQLEngineOptions, 'log' | 'maxPageSize'>;
}
