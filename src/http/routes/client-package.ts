import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { HttpError } from '../../lib/http-error.ts';
import type { CachedResponse } from '../../served/cached-response.ts';
import { countsIn, type RouteTable } from '../routing.ts';
import { send } from '../send.ts';
import { staticFile } from '../static-page.ts';

/**
 * Where `npm run build` puts the typed client's package (scripts/client-package.mjs): beside
 * the bundled server (dist/client/), and found from the sources too (`npm run dev`) once built.
 */
const PLACES = [new URL('./client/', import.meta.url), new URL('../../../dist/client/', import.meta.url)].map((url) =>
  fileURLToPath(url),
);

/** The client's npm package tarball (`<name>-<version>.tgz`), read into memory; undefined when not built. */
function loadClientPackage(): CachedResponse | undefined {
  for (const dir of PLACES) {
    const name = existsSync(dir) ? readdirSync(dir).find((file) => file.endsWith('.tgz')) : undefined;
    if (name)
      return staticFile(dir, name, {
        'Content-Type': 'application/gzip',
        'Content-Disposition': `attachment; filename="${name}"`,
      });
  }
  return undefined;
}

/**
 * `GET /api/client.tgz`: the typed TypeScript client of this API as an npm package with no
 * dependencies (`npm install http://<server>/api/client.tgz`; docs/clients.md), read on first
 * use. It counts in no rate limit, like the reference page: a class installing it must not
 * spend its budget on it.
 *
 * @example
 * clientPackageRoutes(routes, 'public, max-age=300');
 */
export function clientPackageRoutes(router: RouteTable, cacheControl: string): void {
  let tarball: CachedResponse | undefined;
  router.get('/api/client.tgz', countsIn('free'), (ctx) => {
    tarball ??= loadClientPackage();
    if (!tarball)
      throw new HttpError(
        503,
        'The typed client package has not been built in this copy of the service: ' +
          'run `npm run build` in a checkout with clients/typescript/',
      );
    send(ctx, tarball, cacheControl);
  });
}
