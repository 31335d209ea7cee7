import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CachedResponse } from '../served/cached-response.ts';
import { PAGE_HEADERS, staticFile } from '../http/static-page.ts';

const SWAGGER_UI = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const OWN = fileURLToPath(new URL('./page/', import.meta.url));

/**
 * The files `/api/docs/{asset}` serves: Swagger UI's bundle and stylesheet from node_modules,
 * and this service's own script (it lists the operations at once, then starts Swagger UI),
 * stylesheet and icon (GraphiQL's page shows the icon too).
 */
export const REFERENCE_ASSETS: Readonly<Record<string, { dir: string; type: string }>> = {
  'swagger-ui-bundle.js': { dir: SWAGGER_UI, type: 'text/javascript; charset=utf-8' },
  'swagger-ui.css': { dir: SWAGGER_UI, type: 'text/css; charset=utf-8' },
  'reference.js': { dir: OWN, type: 'text/javascript; charset=utf-8' },
  'reference.css': { dir: OWN, type: 'text/css; charset=utf-8' },
  'favicon.svg': { dir: OWN, type: 'image/svg+xml' },
};

/**
 * Throws, naming the file, when a file of the reference page is missing: checked at boot so
 * a broken install stops there rather than breaking the page later.
 */
export function checkReferencePage(): void {
  for (const [name, { dir }] of [...Object.entries(REFERENCE_ASSETS), ['index.html', { dir: OWN }] as const]) {
    if (!existsSync(join(dir, name)))
      throw new Error(`the API reference page needs ${join(dir, name)}, which is missing`);
  }
}

/**
 * Reads the reference page and its assets into memory (the routes do it on first use).
 * Each is compressed at most once per encoding, on demand.
 *
 * @example
 * const { page, assets } = loadReferencePage();
 * assets.get('swagger-ui.css')!.headers['Content-Type']; // 'text/css; charset=utf-8'
 */
export function loadReferencePage(): { page: CachedResponse; assets: ReadonlyMap<string, CachedResponse> } {
  const assets = new Map(
    Object.entries(REFERENCE_ASSETS).map(([name, { dir, type }]) => [
      name,
      staticFile(dir, name, { 'Content-Type': type }),
    ]),
  );
  return {
    page: staticFile(OWN, 'index.html', { 'Content-Type': 'text/html; charset=utf-8', ...PAGE_HEADERS }),
    assets,
  };
}
