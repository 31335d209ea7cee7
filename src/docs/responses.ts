import { ref, type Json } from './schemas.ts';

const integer = { type: 'integer', minimum: 0 };
const text = { type: 'string' };

/**
 * Every response header the API sends, for `components.headers`. Names are the wire names
 * (a test checks them against real answers and the CORS-exposed list).
 */
export const HEADERS: Record<string, Json> = {
  'X-Pagination-Page-Index': { description: 'The page served, from 1', schema: integer },
  'X-Pagination-Page-Size': { description: 'Records on this page', schema: integer },
  'X-Pagination-Page-Total': { description: 'Pages in all', schema: integer },
  'X-Pagination-Item-Total': { description: 'Records matching the filters, all pages together', schema: integer },
  Link: {
    description: 'RFC 8288 links `first`, `prev`, `next` and `last`, path-absolute, keeping every other parameter',
    schema: {
      ...text,
      examples: ['</api/v1/actors?page=1&size=10>; rel="first", </api/v1/actors?page=2&size=10>; rel="next", …'],
    },
  },
  ETag: {
    description:
      'Strong validator of this answer: send it back in `If-None-Match` to get a 304. Changes when the data changes.',
    schema: text,
  },
  'Cache-Control': {
    description: '`public, max-age=<CACHE_MAX_AGE>` on reads, `no-store` on random picks and tokens',
    schema: text,
  },
  'Content-Disposition': {
    description: 'A download\'s file name (`attachment; filename="actors.csv"`)',
    schema: text,
  },
  'Content-Language': {
    description: 'The language served (on a translation list: every language listed)',
    schema: text,
  },
  'X-Rate-Limit-Remaining': {
    description: 'Requests left in this window (HawAPI clients read this one)',
    schema: integer,
  },
  'X-Rate-Limit-Limit': { description: 'The budget of the window', schema: integer },
  'X-Rate-Limit-Reset': { description: 'When the budget refills, in epoch seconds', schema: integer },
  'RateLimit-Policy': { description: '`"<tier>";q=<limit>;w=<window seconds>` (IETF draft)', schema: text },
  RateLimit: { description: '`"<tier>";r=<remaining>;t=<seconds to reset>` (IETF draft)', schema: text },
  'Retry-After': { description: 'Seconds to wait before trying again', schema: integer },
  'X-Rate-Limit-Retry-After-Seconds': { description: 'The same, as HawAPI names it', schema: integer },
  Allow: { description: 'The methods the path takes (on a 405)', schema: text },
  Location: { description: 'Where the new record (or translation, or social) is read from now', schema: text },
  'Catalog-Version': {
    description:
      "The data version the answer was read from: the change feed's cursor after the last change it holds " +
      '(opaque). `GET /api/v1/changes?since=<it>` lists what changed since',
    schema: text,
  },
  'WWW-Authenticate': {
    description: '`Bearer error="invalid_token"` for a refused token, `Bearer` for wrong credentials',
    schema: text,
  },
};

/** Headers of every answer that read the catalog, and of every rate-limited one (absent when `RATE_LIMIT=off`). */
export const COMMON_HEADERS = [
  'Catalog-Version',
  'X-Rate-Limit-Remaining',
  'X-Rate-Limit-Limit',
  'X-Rate-Limit-Reset',
  'RateLimit-Policy',
  'RateLimit',
];

/** Headers of a list answer. */
export const PAGE_HEADERS = [
  'X-Pagination-Page-Index',
  'X-Pagination-Page-Size',
  'X-Pagination-Page-Total',
  'X-Pagination-Item-Total',
  'Link',
];

/**
 * `$ref`s to the named headers, for a response's `headers`.
 *
 * @example
 * headerRefs(['ETag']); // { ETag: { $ref: '#/components/headers/ETag' } }
 */
export function headerRefs(names: readonly string[]): Json {
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

/**
 * A 2xx answer with a JSON body and its headers (the rate-limit ones added).
 *
 * @example
 * success('A page of actors', { type: 'array', items: ref('Actor') }, [...PAGE_HEADERS, 'ETag']);
 */
export function success(description: string, schema: Json, headers: readonly string[]): Json {
  return {
    description,
    headers: headerRefs([...headers, ...COMMON_HEADERS]),
    content: { 'application/json': { schema } },
  };
}

/**
 * An error answer with the Error body, for when the shared ones do not say enough.
 *
 * @example
 * errorResponse('The family has no records to pick from');
 */
export function errorResponse(description: string, headers: readonly string[] = []): Json {
  return {
    description,
    headers: headerRefs([...headers, 'Cache-Control', ...COMMON_HEADERS]),
    content: { 'application/json': { schema: ref('Error') } },
  };
}

/** The 429: the Error body, or a short page saying the same to a browser (an `Accept` preferring HTML). */
function tooManyRequests(): Json {
  const answer = errorResponse(
    'Over the rate limit; try again after `Retry-After` seconds. A request preferring `text/html` (a browser ' +
      'page) gets a short page saying the same.',
    ['Retry-After', 'X-Rate-Limit-Retry-After-Seconds'],
  );
  return { ...answer, content: { ...(answer.content as Json), 'text/html': { schema: { type: 'string' } } } };
}

/**
 * The shared error answers, for `components.responses`; every one has the Error body (the 429 also a page for
 * browsers).
 */
export const COMPONENT_RESPONSES: Record<string, Json> = {
  NotModified: {
    description:
      'The `If-None-Match` ETag is still current: no body, and the headers the 200 would have (its pagination ' +
      'and language included)',
    headers: headerRefs(['ETag', 'Cache-Control', 'Content-Language', ...PAGE_HEADERS, ...COMMON_HEADERS]),
  },
  Error: errorResponse(
    'Any other answer is an error in the one shape, its message naming what was wrong: a malformed request ' +
      '(400), a wrong method (405, with `Allow`), a body too large or of the wrong type (413, 415), a request too ' +
      'slow (408), a target or headers too long (414, 431), a service busy or not ready (503, with `Retry-After`)',
    ['Allow', 'Retry-After'],
  ),
  Unauthorized: errorResponse('The bearer token was refused (malformed, tampered, expired, or its account deleted)', [
    'WWW-Authenticate',
  ]),
  NotFound: errorResponse('No such record'),
  PayloadTooLarge: errorResponse('The body is over 16 KB'),
  UnsupportedMediaType: errorResponse('The body is not `application/json` in UTF-8'),
  TooManyRequests: tooManyRequests(),
};

/** A `$ref` to a shared error answer. @example response('NotFound'); // { $ref: '#/components/responses/NotFound' } */
export function response(name: keyof typeof COMPONENT_RESPONSES): Json {
  return { $ref: `#/components/responses/${name}` };
}

/** The answers every operation may give besides its own: a refused token, the rate limit, and any other error. */
export const ALWAYS: Json = {
  401: response('Unauthorized'),
  429: response('TooManyRequests'),
  default: response('Error'),
};

/** The same for routes that count in no budget (the reference page, the health check): no 429. */
export const ALWAYS_FREE: Json = { 401: response('Unauthorized'), default: response('Error') };

/** The headers of an answer any cache may keep and revalidate. */
export const CACHED = ['ETag', 'Cache-Control'];
