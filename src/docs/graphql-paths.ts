import { ALWAYS, ALWAYS_FREE, errorResponse, headerRefs, COMMON_HEADERS, response } from './responses.ts';
import { ref, type Json } from './schemas.ts';

/** The media types a GraphQL answer comes in: the one `Accept` prefers (GraphQL over HTTP). */
const GRAPHQL_TYPES = ['application/graphql-response+json', 'application/json'];

/** What GraphQL over HTTP carries, for `components.schemas`. */
export const GRAPHQL_SCHEMAS: Record<string, Json> = {
  GraphQLRequest: {
    type: 'object',
    description: 'One GraphQL operation (an array of them is refused: one operation per request)',
    required: ['query'],
    properties: {
      query: { type: 'string', description: 'The GraphQL document' },
      variables: { type: ['object', 'null'], description: 'Values of the variables the document declares' },
      operationName: {
        type: ['string', 'null'],
        description: 'Which operation of the document to run, when it has several',
      },
      extensions: { type: ['object', 'null'] },
    },
  },
  GraphQLResponse: {
    type: 'object',
    description:
      'A GraphQL execution result: `data`, and `errors` naming what was wrong (a limit, a bad argument, an ' +
      'unknown field)',
    properties: {
      data: { type: ['object', 'null'] },
      errors: {
        type: 'array',
        items: {
          type: 'object',
          required: ['message'],
          properties: {
            message: { type: 'string' },
            locations: {
              type: 'array',
              items: { type: 'object', properties: { line: { type: 'integer' }, column: { type: 'integer' } } },
            },
            path: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
            extensions: { type: 'object' },
          },
        },
      },
      extensions: { type: 'object' },
    },
  },
};

/**
 * A GraphQL answer in both media types; `alsoError` when the service's own refusals (in the Error shape) share the
 * status.
 */
function graphqlAnswer(description: string, headers: readonly string[], alsoError = false): Json {
  const schema = alsoError ? { anyOf: [ref('GraphQLResponse'), ref('Error')] } : ref('GraphQLResponse');
  return {
    description,
    headers: headerRefs([...headers, ...COMMON_HEADERS]),
    content: Object.fromEntries(GRAPHQL_TYPES.map((type) => [type, { schema }])),
  };
}

/** The same answer, or GraphiQL's page. */
function withPage(answer: Json): Json {
  return {
    ...answer,
    content: { ...(answer.content as Json), 'text/html': { schema: { type: 'string', description: 'GraphiQL' } } },
  };
}

const ABOUT =
  'Queries the same catalog as the REST reads (GraphQL over HTTP). The schema is generated from the JSON ' +
  'Schemas: one field per family with typed filters, `q`, `sort`, `page`, `size` and `language`, one per record ' +
  'by uuid, one random. ' +
  'Depth, aliases, estimated cost, document size and tokens are limited (`GRAPHQL_*` settings); a query over a ' +
  "limit is refused before it runs. Counts in the caller's rate limit like a REST read.";

/**
 * `GET` and `POST /api/graphql`, and `/api/graphql/schema.graphql`.
 *
 * @example
 * Object.keys(graphqlPaths()); // ['/api/graphql', '/api/graphql/{file}', '/api/graphql/schema.graphql']
 */
export function graphqlPaths(): Record<string, Json> {
  const tags = ['GraphQL'];
  const common = {
    400: graphqlAnswer(
      'A document that does not parse or validate, a variable of the wrong type, a batch; or a body the service ' +
        'cannot read (Error shape)',
      ['Cache-Control'],
      true,
    ),
    405: graphqlAnswer(
      'A mutation by GET (GraphQL shape), or a method other than GET and POST (Error shape, with `Allow`)',
      ['Cache-Control', 'Allow'],
      true,
    ),
    503: graphqlAnswer(
      'Too many costly operations (estimated cost 1,000 or more, run one at a time) already waiting: try again ' +
        'after `Retry-After` seconds (GraphQL shape); or the catalog is not loaded yet (Error shape)',
      ['Cache-Control', 'Retry-After'],
      true,
    ),
    ...ALWAYS,
  };
  return {
    '/api/graphql': {
      get: {
        tags,
        operationId: 'graphqlGet',
        summary: 'Run a GraphQL query (cacheable)',
        description: `${ABOUT} A GET's answer carries a strong ETag and \`Cache-Control: public\`, like a REST read.`,
        parameters: [
          {
            name: 'query',
            in: 'query',
            required: true,
            description:
              'The GraphQL document (a browser that sends none, preferring HTML, gets GraphiQL, which counts in ' +
              'no rate limit)',
            schema: { type: 'string' },
            example: '{ actors(size: 2) { items { first_name last_name } total_items } }',
          },
          {
            name: 'variables',
            in: 'query',
            description: 'The variables, as a JSON object',
            schema: { type: 'string' },
          },
          {
            name: 'operationName',
            in: 'query',
            description: 'Which operation to run, when the document has several',
            schema: { type: 'string' },
          },
        ],
        responses: {
          200: withPage(
            graphqlAnswer(
              'The result, `errors` included when a field failed; to a browser that sends no `query`, GraphiQL ' +
                '(counted in no rate limit, unlike the queries it sends)',
              ['ETag', 'Cache-Control'],
            ),
          ),
          304: response('NotModified'),
          ...common,
        },
      },
      post: {
        tags,
        operationId: 'graphqlPost',
        summary: 'Run a GraphQL query or mutation',
        description:
          `${ABOUT} Mutations (\`create_episode\`, \`update_episode\`, \`delete_episode\`… for MAINTAINER and ` +
          `ADMIN tokens) make the REST writes, by POST only; a refused one is a GraphQL error whose ` +
          `\`extensions.status\` is the REST status. A POST's answer is not stored by caches (\`Cache-Control: ` +
          `no-store\`).`,
        requestBody: { required: true, content: { 'application/json': { schema: ref('GraphQLRequest') } } },
        responses: {
          200: graphqlAnswer('The result, `errors` included when a field failed', ['Cache-Control']),
          ...common,
          413: errorResponse('The body is over twice `GRAPHQL_MAX_DOCUMENT_BYTES` (32 KB by default)'),
          415: response('UnsupportedMediaType'),
        },
      },
    },
    '/api/graphql/{file}': {
      get: {
        tags,
        operationId: 'graphiqlFile',
        summary: 'The script or stylesheet of GraphiQL',
        description:
          'GraphiQL and React, bundled by `npm run build` and served by this service (no CDN); counts in no rate ' +
          'limit.',
        parameters: [
          {
            name: 'file',
            in: 'path',
            required: true,
            schema: { type: 'string', enum: ['graphiql.js', 'graphiql.css'] },
          },
        ],
        responses: {
          200: {
            description: 'The file',
            headers: headerRefs(['ETag', 'Cache-Control']),
            content: { 'text/javascript': { schema: { type: 'string' } }, 'text/css': { schema: { type: 'string' } } },
          },
          304: response('NotModified'),
          404: response('NotFound'),
          ...ALWAYS_FREE,
        },
      },
    },
    '/api/graphql/schema.graphql': {
      get: {
        tags,
        operationId: 'graphqlSchema',
        summary: 'The GraphQL schema as SDL',
        description:
          'The schema `/api/graphql` runs, in the GraphQL schema language, for client generators (the same text ' +
          'as `data/schemas/catalog.graphql`).',
        responses: {
          200: {
            description: 'The SDL',
            headers: headerRefs(['ETag', 'Cache-Control', ...COMMON_HEADERS]),
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
          304: response('NotModified'),
          ...ALWAYS,
        },
      },
    },
  };
}
