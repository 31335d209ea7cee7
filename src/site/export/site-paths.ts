import type { Catalog } from '../../catalog/catalog.ts';
import { FAMILY_NAMES } from '../../catalog/families.ts';
import { familyPath, hrefOf } from '../../catalog/href.ts';
import { socialsOf } from '../../catalog/socials.ts';

/** Answers of the server the site keeps whole, and the worker serves as they were (`SiteManifest.fixed`). */
export const FIXED_ANSWERS = ['/api/ping', '/api/v1/endpoints', '/api/openapi.json'] as const;

/**
 * Every GET of the read API whose answer is one file, for a client without the worker: `/api`,
 * the overview, each record by uuid, each record's translations and each actor's socials. Lists
 * and random picks are not among them (a static host ignores the query string): the worker
 * answers those.
 *
 * @example
 * fixedReads(catalog);
 * // ['/api', '/api/v1/overview', '/api/v1/overview/translations', …, '/api/v1/actors/<uuid>', …]
 */
export function fixedReads(catalog: Catalog): string[] {
  const paths = ['/api'];
  for (const name of FAMILY_NAMES) {
    const store = catalog.store(name);
    store.records.forEach((record, position) => {
      const path = name === 'overview' ? familyPath(name) : hrefOf(name, record.uuid);
      paths.push(path);
      if (store.family.translation) {
        paths.push(`${path}/translations`);
        for (const language of store.languagesOf(position)) paths.push(`${path}/translations/${language}`);
      }
      if (name === 'actors') {
        const socials = socialsOf(record);
        if (socials.length) paths.push(`${path}/socials`);
        // A name a file system cannot hold as one folder ('a/b', '..') is left to the worker.
        for (const { social } of socials)
          if (!/\/|^\.\.?$/.test(social)) paths.push(`${path}/socials/${encodeURIComponent(social.toLowerCase())}`);
      }
    });
  }
  return paths;
}

/**
 * The file a static host serves for an API path: `<path>/index.html` (the only name every
 * host serves for a folder, and a record's path is also its translations' folder), or the
 * path itself for the OpenAPI document.
 */
export function fileFor(path: string): string {
  const relative = decodeURIComponent(path).replace(/^\//, '');
  return path === '/api/openapi.json' ? relative : `${relative}/index.html`;
}
