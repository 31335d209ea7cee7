import { existsSync, readFileSync } from 'node:fs';

/** The fields of package.json the service reports (`/api`, the OpenAPI document). */
export interface PackageInfo {
  name: string;
  version: string;
  description: string;
  license: string;
  homepage?: string;
  repository?: { url?: string };
}

/**
 * The project's package.json: the nearest one above this module that names a package (from
 * src/lib/ when run from the sources, from dist/ when bundled). dist/ holds a package.json of
 * its own, `{ "type": "commonjs" }`, which only tells Node how to load the bundle: a file
 * without a name is such a marker, never the project's.
 */
function packageFile(): URL {
  for (let dir = new URL('./', import.meta.url); dir.pathname !== '/'; dir = new URL('../', dir)) {
    const file = new URL('package.json', dir);
    if (existsSync(file) && typeof (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'string')
      return file;
  }
  throw new Error(`no package.json with a name above ${new URL('./', import.meta.url).pathname}`);
}

/** package.json, read once at startup. */
export const PACKAGE: PackageInfo = JSON.parse(readFileSync(packageFile(), 'utf8')) as PackageInfo;
