import { PICTURE_TYPES } from '../catalog/pictures/file-types.ts';
import { PICTURE_CACHE_CONTROL, PICTURE_CSP } from '../reads/pictures.ts';
import { ALWAYS, headerRefs, COMMON_HEADERS, response } from './responses.ts';
import type { Json } from './schemas.ts';

/**
 * `GET /images/{folder}/{picture}`: the pictures the catalog's `thumbnail` and `images` fields
 * point at, with the headers that make an SVG inert when opened on its own.
 *
 * @example
 * Object.keys(picturePaths()); // ['/images/{folder}/{picture}']
 */
export function picturePaths(): Record<string, Json> {
  const types = [...new Set(Object.values(PICTURE_TYPES))];
  const picture = {
    description: 'The picture, of the media type its name says',
    headers: {
      ...headerRefs(['ETag', ...COMMON_HEADERS]),
      'Cache-Control': { description: `\`${PICTURE_CACHE_CONTROL}\``, schema: { type: 'string' } },
      'X-Content-Type-Options': { description: '`nosniff`', schema: { type: 'string', enum: ['nosniff'] } },
      'Content-Security-Policy': {
        description: 'Neutralises any script in a picture opened on its own',
        schema: { type: 'string', enum: [PICTURE_CSP] },
      },
    },
    content: Object.fromEntries(types.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }])),
  };
  return {
    '/images/{folder}/{picture}': {
      get: {
        tags: ['Pictures'],
        operationId: 'getPicture',
        summary: 'A picture of a record (thumbnail or image)',
        description:
          "What the `thumbnail` and `images` URLs of the records point at: a file from the data directory's " +
          '`images/` (SVG, PNG, JPEG or WebP, checked at boot), else a picture the server draws for the record ' +
          'the path names (an SVG portrait, still, poster, cover or place card whose `' +
          '<title>` names that record). Served from memory with a strong ETag; counted in its own rate-limit ' +
          'budget per address (`PICTURE_RATE_LIMIT`), not in the reading budget.',
        parameters: [
          {
            name: 'folder',
            in: 'path',
            required: true,
            schema: { type: 'string', pattern: '^[A-Za-z0-9_-]+$', examples: ['characters'] },
          },
          {
            name: 'picture',
            in: 'path',
            required: true,
            schema: { type: 'string', examples: ['9df616f9-8f18-45de-a9b6-c4237b6ae0ad.svg'] },
          },
        ],
        responses: { 200: picture, 304: response('NotModified'), 404: response('NotFound'), ...ALWAYS },
      },
    },
  };
}
