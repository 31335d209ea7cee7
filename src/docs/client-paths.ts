import { ALWAYS_FREE, COMMON_HEADERS, errorResponse, headerRefs } from './responses.ts';
import type { Json } from './schemas.ts';

/** The headers of the package's 304: what caches need. */
const HEADERS = ['ETag', 'Cache-Control', ...COMMON_HEADERS];

/**
 * `GET /api/client.tgz`: the typed TypeScript client made from this document, as an npm
 * package (src/http/routes/client-package.ts serves it).
 *
 * @example
 * Object.keys(clientPaths()); // ['/api/client.tgz']
 */
export function clientPaths(): Record<string, Json> {
  return {
    '/api/client.tgz': {
      get: {
        tags: ['Reference'],
        operationId: 'getClientPackage',
        summary: 'The typed TypeScript client of this API, as an npm package',
        description:
          'An npm package tarball made from this document by `npm run build`: every route, parameter, record and ' +
          'error typed, over openapi-fetch, which it bundles, so it has no dependencies and installs with no ' +
          'registry: `npm install http://<this server>/api/client.tgz`. Counts in no rate limit.',
        responses: {
          200: {
            description: 'The package (`package/package.json`, its ES module and its declarations), gzipped',
            headers: headerRefs([...HEADERS, 'Content-Disposition']),
            content: {
              'application/gzip': { schema: { type: 'string', contentMediaType: 'application/gzip' } },
            },
          },
          304: { description: 'The `If-None-Match` ETag is still current: no body', headers: headerRefs(HEADERS) },
          503: errorResponse(
            'This copy of the service was built without the client (`npm run build` packs it from clients/typescript/)',
          ),
          ...ALWAYS_FREE,
        },
      },
    },
  };
}
