import { ALWAYS, ALWAYS_FREE, errorResponse, headerRefs, COMMON_HEADERS, response, success } from './responses.ts';
import { ref, type Json } from './schemas.ts';

const CACHED = ['ETag', 'Cache-Control'];

/** The bearer token is optional: anonymous, or a token naming an account. */
const OPTIONAL_BEARER = [{}, { bearerAuth: [] }];

/**
 * `/api`, `/api/ping` and `/api/v1/endpoints`.
 *
 * @example
 * Object.keys(metaPaths()); // ['/api', '/api/ping', '/api/v1/endpoints']
 */
export function metaPaths(): Record<string, Json> {
  const tags = ['Service'];
  return {
    '/api': {
      get: {
        tags,
        operationId: 'getApiInfo',
        summary: 'Service info, as HawAPI clients read it',
        description:
          'Title, version, license and the URLs of this deployment (`PUBLIC_URL`, else the address of the request).',
        responses: {
          200: success('Title, version, URLs and license', ref('ApiInfo'), CACHED),
          304: response('NotModified'),
          ...ALWAYS,
        },
      },
    },
    '/api/ping': {
      get: {
        tags,
        operationId: 'ping',
        summary: 'Liveness check',
        description:
          'Answers `Pong` as soon as the server listens, whatever the catalog; counts against no rate limit, for ' +
          'health checks.',
        responses: {
          200: { description: '`Pong`', content: { 'text/plain': { schema: { type: 'string', enum: ['Pong'] } } } },
          ...ALWAYS_FREE,
        },
      },
    },
    '/api/v1/endpoints': {
      get: {
        tags,
        operationId: 'listEndpoints',
        summary: 'Every GET route pattern',
        description: 'The route patterns of the read API, as HawAPI lists them, with `{uuid}`-style parameters.',
        responses: {
          200: success('The route patterns', { type: 'array', items: ref('Endpoint') }, CACHED),
          304: response('NotModified'),
          ...ALWAYS,
        },
      },
    },
  };
}

/** One account operation: a JSON body and the answers every one of them shares. */
function accountOperation(
  operationId: string,
  summary: string,
  description: string,
  body: string,
  answers: Json,
): Json {
  return {
    post: {
      tags: ['Accounts'],
      operationId,
      summary,
      description,
      security: OPTIONAL_BEARER,
      requestBody: { required: true, content: { 'application/json': { schema: ref(body) } } },
      // Numeric keys list in numeric order whatever the order here; the operation's own answers win.
      responses: {
        ...ALWAYS,
        400: errorResponse(
          'Malformed JSON, or a body breaking the rules; the message names every field and rule at once',
        ),
        413: response('PayloadTooLarge'),
        415: response('UnsupportedMediaType'),
        ...answers,
      },
    },
  };
}

const noStore = (description: string, schema: Json) => ({
  description,
  headers: headerRefs(['Cache-Control', ...COMMON_HEADERS]),
  content: { 'application/json': { schema } },
});

/**
 * `POST /api/v1/auth/register`, `/authenticate` and `/delete`. They have their own rate-limit
 * budget per address (`AUTH_RATE_LIMIT`) and sign-ins a per-username failure budget.
 *
 * @example
 * accountPaths()['/api/v1/auth/register'].post.responses[201]; // the token answer
 */
export function accountPaths(): Record<string, Json> {
  const invalid = errorResponse(
    '`Invalid credentials`: wrong password, unknown username, or an email not matching the account (one message, ' +
      'same timing); or a refused bearer token',
    ['WWW-Authenticate'],
  );
  return {
    '/api/v1/auth/register': accountOperation(
      'register',
      'Create an account and get its first token',
      "Creates a BASIC account. A DEV, MAINTAINER or ADMIN account needs an ADMIN's bearer token.",
      'RegisterBody',
      {
        201: noStore('The account and a bearer token', ref('Registered')),
        401: errorResponse('A role other than BASIC without a token, or a refused token', ['WWW-Authenticate']),
        403: errorResponse("A role other than BASIC with a token that is not an ADMIN's"),
        409: errorResponse('The username or the email is already registered (the message says which)'),
      },
    ),
    '/api/v1/auth/authenticate': accountOperation(
      'authenticate',
      'Sign in: a fresh token',
      '`email` is optional; when given it must match the account. A username that failed `LOGIN_FAILURE_LIMIT` ' +
        'times in a row is answered 429 for a while, from any address.',
      'CredentialsBody',
      { 200: noStore('The account and a fresh bearer token', ref('Authenticated')), 401: invalid },
    ),
    '/api/v1/auth/delete': accountOperation(
      'deleteAccount',
      'Delete an account',
      'The account is gone from disk before the answer; its tokens stop working at once.',
      'CredentialsBody',
      { 204: { description: 'Deleted', headers: headerRefs(COMMON_HEADERS) }, 401: invalid },
    ),
  };
}
