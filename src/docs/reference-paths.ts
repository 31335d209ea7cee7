import { REFERENCE_ASSETS } from './reference-page.ts';
import { ALWAYS_FREE, headerRefs, COMMON_HEADERS } from './responses.ts';
import type { Json } from './schemas.ts';

/** The answer to `GET /`: where it leads, and its body and type, as served and documented. */
export const HOME = {
  location: '/api/docs',
  type: 'text/html',
  body: 'Redirecting to <a href="/api/docs">/api/docs</a>.',
} as const;

/** `/`, the reference page, its assets, the icon and this document. */
export function referencePaths(): Record<string, Json> {
  const tags = ['Reference'];
  const file = (description: string, type: string, schema: Json = { type: 'string' }) => ({
    description,
    headers: headerRefs(['ETag', 'Cache-Control', ...COMMON_HEADERS]),
    content: { [type]: { schema } },
  });
  return {
    '/': {
      get: {
        tags,
        operationId: 'home',
        summary: 'Leads a browser to the API reference',
        description:
          'A redirect, so that the address of the server alone opens the reference page; HEAD answers the same ' +
          'without the body.',
        responses: {
          302: {
            description: `Redirect to \`${HOME.location}\`, with a one-line page linking to it`,
            headers: { Location: { schema: { type: 'string', enum: [HOME.location] } } },
            content: { [HOME.type]: { schema: { type: 'string', enum: [HOME.body] } } },
          },
          ...ALWAYS_FREE,
        },
      },
    },
    '/api/docs': {
      get: {
        tags,
        operationId: 'getReferencePage',
        summary: 'This interactive API reference (works offline)',
        description:
          'The reference page, served with every script and stylesheet it needs by this server (no CDN) and a ' +
          'Content-Security-Policy that reaches nothing else.',
        responses: {
          200: file('The page', 'text/html'),
          304: { $ref: '#/components/responses/NotModified' },
          ...ALWAYS_FREE,
        },
      },
    },
    '/api/docs/{asset}': {
      get: {
        tags,
        operationId: 'getReferenceAsset',
        summary: 'A script, stylesheet or icon of the reference page',
        description:
          "The files of the reference page: Swagger UI's, from the swagger-ui-dist package installed with the " +
          "server, and the service's own.",
        parameters: [
          {
            name: 'asset',
            in: 'path',
            required: true,
            schema: { type: 'string', enum: Object.keys(REFERENCE_ASSETS) },
          },
        ],
        responses: {
          200: file('The file', '*/*'),
          304: { $ref: '#/components/responses/NotModified' },
          404: { $ref: '#/components/responses/NotFound' },
          ...ALWAYS_FREE,
        },
      },
    },
    '/favicon.ico': {
      get: {
        tags,
        operationId: 'getFavicon',
        summary: "The service's icon",
        description:
          'The icon both pages link (`/api/docs/favicon.svg`, an SVG image), also where a browser looks for one ' +
          'by default, as when it shows a JSON answer.',
        responses: {
          200: file('The icon', 'image/svg+xml'),
          304: { $ref: '#/components/responses/NotModified' },
          ...ALWAYS_FREE,
        },
      },
    },
    '/api/openapi.json': {
      get: {
        tags,
        operationId: 'getOpenApi',
        summary: 'This OpenAPI 3.1 document',
        description:
          'Generated at boot from the JSON Schemas that validate the catalog, so it describes exactly what is served.',
        responses: {
          200: file('The document', 'application/json', { type: 'object', description: 'An OpenAPI 3.1 document' }),
          304: { $ref: '#/components/responses/NotModified' },
          ...ALWAYS_FREE,
        },
      },
    },
  };
}
