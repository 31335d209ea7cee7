import { readFileSync } from 'node:fs';

/** The fields of package.json the service reports (`/api`, the OpenAPI document). */
export interface PackageInfo {
  version: string;
  description: string;
  license: string;
  homepage?: string;
  repository?: { url?: string };
}

/** package.json, read once at startup. */
export const PACKAGE: PackageInfo = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as PackageInfo;
