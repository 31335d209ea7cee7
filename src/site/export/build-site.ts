import type { Catalog } from '../../catalog/catalog.ts';
import { drawnPicture, pictureReferences } from '../../catalog/pictures/references.ts';
import type { About } from '../../reads/types.ts';
import { MANIFEST_PATH, type FixedAnswer, type SiteManifest } from '../manifest.ts';
import { headersFile } from './headers-file.ts';
import { exceededLimits, HOST_LIMITS } from './host-limits.ts';
import { REGISTER_SCRIPT, sitePages } from './pages.ts';
import { siteDocument } from './site-document.ts';
import { bodyOf, type SiteGet } from './site-get.ts';
import { siteData } from './site-data.ts';
import { FIXED_ANSWERS, fileFor, fixedReads } from './site-paths.ts';

/** What an export is made from besides the catalog and the server that answers for it. */
export interface SiteOptions {
  /** `/` or `/<repo>/`. */
  base: string;
  cacheSeconds: number;
  maxPageSize: number;
  maxCsvRows: number;
  about: About;
  /** GraphQL's limits, as the server's configuration sets them. */
  graphql: SiteManifest['graphql'];
  /** The bundled worker and the pages' script (scripts/build.mjs writes them under dist/site/). */
  worker: { 'sw.js': Buffer; 'register.js': Buffer };
  /** What the server put before picture paths, replaced by the site's own prefix in the files. */
  origin: { served: string; site: string };
}

/** A built site: its files by path, and what it says of them (limits met or not, what was left out). */
export interface BuiltSite {
  files: Map<string, Buffer>;
  notes: string[];
}

/**
 * JSON text that is also harmless HTML (a host serves `index.html` as a page): `<`, `>` and `&` escaped, the value
 * unchanged.
 */
const htmlSafe = (json: string) =>
  json.replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16).padStart(2, '0')}`);

/** Asks `each` of `paths` 16 at a time: the server answers on loopback while the next requests are sent. */
async function inBatches(paths: readonly string[], each: (path: string) => Promise<void>): Promise<void> {
  for (let from = 0; from < paths.length; from += 16) await Promise.all(paths.slice(from, from + 16).map(each));
}

/** How many files the strictest host takes (Cloudflare Pages). */
const MOST_FILES = Math.min(...HOST_LIMITS.flatMap((limit) => (limit.files ? [limit.files] : [])));

/**
 * The static site of a catalog: its pages, pictures and worker, the catalog's rows for the
 * worker, and a file for each fixed read (`fixedReads`) for clients without the worker, as
 * the server (`get`) answers each. Fixed reads past the strictest host's file count are left
 * out (the worker still answers them), and `notes` says so.
 *
 * @example
 * const { files, notes } = await buildSite(catalog, get, { base: '/', ... });
 */
export async function buildSite(catalog: Catalog, get: SiteGet, options: SiteOptions): Promise<BuiltSite> {
  const { base, origin } = options;
  const files = new Map<string, Buffer>([['.nojekyll', Buffer.alloc(0)]]);
  const notes: string[] = [];
  for (const [file, body] of await sitePages(get, base)) files.set(file, body);
  files.set('sw.js', options.worker['sw.js']);
  files.set(REGISTER_SCRIPT, options.worker['register.js']);
  files.set('_headers', Buffer.from(headersFile(base, options.cacheSeconds)));

  // A contributor's pictures are files of the site; the drawn ones the worker draws, and are files too while the host's
  // count allows.
  const named = new Set<string>();
  const shared = new Set<string>();
  for (const store of catalog.stores.values())
    for (const record of store.records)
      for (const { path } of pictureReferences(record)) {
        named.add(path);
        const drawn = drawnPicture(path);
        if (drawn && drawn.family !== store.family.name) shared.add(path);
      }
  const contributed = [...named].filter((path) => catalog.pictureFiles.has(path));
  for (const path of contributed) files.set(path.slice(1), await bodyOf(get, path));

  const fixed: Record<string, FixedAnswer> = {};
  for (const path of FIXED_ANSWERS) {
    const answer = await get(path);
    const text =
      path === '/api/openapi.json' ? siteDocument(answer.body.toString('utf8'), base) : answer.body.toString('utf8');
    files.set(fileFor(path), Buffer.from(text));
    const type = answer.headers['content-type']!;
    const cacheControl = answer.headers['cache-control'];
    fixed[path] = { file: fileFor(path), type, ...(answer.headers.etag && cacheControl ? { cacheControl } : {}) };
  }

  const data = siteData(catalog);
  for (const [file, text] of data.files) files.set(file, Buffer.from(text));
  const manifest: SiteManifest = {
    version: catalog.version,
    languages: [...catalog.languages],
    defaultLanguage: catalog.defaultLanguage,
    cacheSeconds: options.cacheSeconds,
    maxPageSize: options.maxPageSize,
    maxCsvRows: options.maxCsvRows,
    about: options.about,
    families: data.families,
    fixed,
    graphql: options.graphql,
    counts: catalog.counts(),
    namesPictures: catalog.namesPictures,
    sharedPictures: [...shared],
    dataBytes: [...data.files.values()].reduce((sum, text) => sum + Buffer.byteLength(text), 0),
    pictureFiles: contributed,
    // The pages and their files; the catalog's rows are kept as families are read (or whole, when small).
    shell: [...files.keys()].filter((file) => !/^(?:images\/|site\/|_|\.nojekyll$)/.test(file)),
  };
  files.set(MANIFEST_PATH, Buffer.from(JSON.stringify(manifest)));

  // Records before their translations and socials, then drawn pictures, should the host's file count leave no room for
  // all.
  const depth = (path: string) => path.split('/').length;
  const reads = fixedReads(catalog).sort((a, b) => depth(a) - depth(b));
  const drawn = [...named].filter((path) => !catalog.pictureFiles.has(path));
  const room = Math.max(0, MOST_FILES - files.size);
  await inBatches(reads.slice(0, room), async (path) => {
    const json = (await bodyOf(get, path)).toString('utf8');
    files.set(fileFor(path), Buffer.from(htmlSafe(json.replaceAll(origin.served, origin.site))));
  });
  const pictureRoom = Math.max(0, room - reads.length);
  await inBatches(drawn.slice(0, pictureRoom), async (path) => void files.set(path.slice(1), await bodyOf(get, path)));
  if (reads.length > room)
    notes.push(
      `left out ${reads.length - room} of ${reads.length} files of single records for clients without the ` +
        `worker, to stay within Cloudflare Pages' ${MOST_FILES} files (the worker answers them all)`,
    );
  if (drawn.length > pictureRoom)
    notes.push(
      `left out ${drawn.length - pictureRoom} of ${drawn.length} drawn pictures, to stay within Cloudflare ` +
        `Pages' ${MOST_FILES} files (the worker draws them; clients without it get the host's 404)`,
    );
  notes.push(...exceededLimits(new Map([...files].map(([file, body]) => [file, body.length]))));
  return { files, notes };
}
