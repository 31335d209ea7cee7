import { COLLECTION_FORMATS } from './collections/formats.ts';
import { ALWAYS_FREE, COMMON_HEADERS, errorResponse, headerRefs } from './responses.ts';
import type { Json } from './schemas.ts';

/**
 * `GET /api/collections/{name}`: the request collections made from this document.
 *
 * @example
 * Object.keys(collectionPaths()); // ['/api/collections/{name}']
 */
export function collectionPaths(): Record<string, Json> {
  const names = Object.keys(COLLECTION_FORMATS);
  const formats = Object.entries(COLLECTION_FORMATS)
    .map(([name, format]) => `\`${name}\`: ${format.description}.`)
    .join(' ');
  // A JSON collection is an object; an .http file is text.
  const content = Object.fromEntries(
    Object.values(COLLECTION_FORMATS).map(({ type }) => {
      const media = type.split(';')[0]!;
      return [media, { schema: media === 'application/json' ? { type: 'object' } : { type: 'string' } }];
    }),
  );
  return {
    '/api/collections/{name}': {
      get: {
        tags: ['Reference'],
        operationId: 'getCollection',
        summary: 'This API as a request collection: Postman, Bruno or an .http file',
        description:
          "Every operation of this document as a request with a working example (this catalog's uuids, this " +
          "server's address in `baseUrl`) and a test of the status it answers, signing up an account first and " +
          `keeping its token. ${formats} Counts against no rate limit.`,
        parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string', enum: names } }],
        responses: {
          200: {
            description: 'The collection, as an attachment named as asked',
            headers: headerRefs(['ETag', 'Cache-Control', 'Content-Disposition', ...COMMON_HEADERS]),
            content,
          },
          304: { $ref: '#/components/responses/NotModified' },
          404: errorResponse('No collection of that name (the message lists them)'),
          ...ALWAYS_FREE,
        },
      },
    },
  };
}
