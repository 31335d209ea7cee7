import { existsSync, readFileSync } from 'node:fs';

/** The fields of package.json the service reports (`/api`, the OpenAPI document). */
export interface PackageInfo {
  version: string;
  description: string;
  license: string;
  homepage?: string;
  repository?: { url?: string };
}

/** The nearest package.json above this module: from src/lib/ when run from the sources, from dist/ when bundled. */
function packageFile(): URL {
  for (let dir = new URL('./', import.meta.url); ; dir = new URL('../', dir)) {
    const file = new URL('package.json', dir);
    if (existsSync(file) || dir.pathname === '/') return file;
  }
}

/** package.json, read once at startup. */
export const PACKAGE: PackageInfo = JSON.parse(readFileSync(packageFile(), 'utf8')) as PackageInfo;
