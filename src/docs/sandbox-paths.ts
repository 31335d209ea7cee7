import { ALWAYS, ALWAYS_FREE, errorResponse, headerRefs, COMMON_HEADERS, response, success } from './responses.ts';
import type { Json } from './schemas.ts';

const SIGNED_IN = [{ bearerAuth: [] }];
const tags = ['Sandboxes'];
const reset = (description: string): Json => ({ description, headers: headerRefs(COMMON_HEADERS) });

/** What `GET /api/v1/sandbox` answers. */
const SANDBOX = {
  type: 'object',
  required: ['username', 'writes', 'limit', 'changes'],
  additionalProperties: false,
  properties: {
    username: { type: 'string' },
    writes: { type: 'integer', minimum: 0, description: 'Writes the sandbox holds' },
    limit: { type: 'integer', minimum: 1, description: 'The most it may hold (`SANDBOX_WRITES`)' },
    changes: {
      type: 'array',
      items: { type: 'string' },
      description:
        'As `npm run catalog -- changes` prints them: a line per write (number, time, account, request), then a ' +
        'line per row it changed, or why it no longer applies',
    },
  },
};

const instant = { type: ['string', 'null'], format: 'date-time' };

/** What `GET /api/v1/sandboxes` answers. */
const CLASS = {
  type: 'object',
  required: ['students', 'per_minute'],
  additionalProperties: false,
  properties: {
    students: {
      type: 'array',
      items: {
        type: 'object',
        required: ['username', 'writes', 'last_write', 'last_reset'],
        additionalProperties: false,
        properties: {
          username: { type: 'string' },
          writes: { type: 'integer', minimum: 0, description: 'Writes its sandbox holds' },
          last_write: instant,
          last_reset: instant,
        },
      },
    },
    per_minute: {
      type: 'array',
      items: {
        type: 'object',
        required: ['minute', 'writes'],
        additionalProperties: false,
        properties: { minute: { type: 'string', format: 'date-time' }, writes: { type: 'integer', minimum: 0 } },
      },
    },
  },
};

const page = (description: string): Json => ({
  description,
  headers: headerRefs(['ETag', 'Cache-Control']),
  content: { '*/*': { schema: { type: 'string' } } },
});

/**
 * Classroom mode's sandbox routes: the caller's changes, its reset, and every sandbox's reset.
 *
 * @example
 * Object.keys(sandboxPaths()); // ['/api/v1/sandbox', '/api/v1/sandboxes']
 */
export function sandboxPaths(): Record<string, Json> {
  return {
    '/api/v1/sandbox': {
      get: {
        tags,
        security: SIGNED_IN,
        operationId: 'getSandbox',
        summary: "The caller's sandbox: its changes",
        description:
          'In classroom mode, an account below MAINTAINER writes to a sandbox of its own: its reads see the ' +
          "catalog with its changes, everyone else's the catalog without them. This lists them.",
        responses: {
          200: success('The changes', SANDBOX, ['Cache-Control']),
          ...ALWAYS,
          401: errorResponse('No bearer token, or a refused one', ['WWW-Authenticate']),
        },
      },
      delete: {
        tags,
        security: SIGNED_IN,
        operationId: 'resetSandbox',
        summary: "Reset the caller's sandbox",
        description: 'Forgets every change it holds: its reads see the catalog again.',
        responses: {
          204: reset('Reset'),
          ...ALWAYS,
          401: errorResponse('No bearer token, or a refused one', ['WWW-Authenticate']),
        },
      },
    },
    '/api/v1/sandboxes': {
      get: {
        tags,
        security: SIGNED_IN,
        operationId: 'getClass',
        summary: 'The class: each student’s sandbox (ADMIN)',
        description:
          "What the teacher's board (`/classroom`) shows: each student with a sandbox (or reset since) with its " +
          "writes held, last write and last reset, never what it wrote; and the class's writes per minute over " +
          'the last 30 minutes. The board follows it live with `GET /api/v1/changes?include=sandboxes` as a ' +
          'stream.',
        responses: {
          200: success('The class', CLASS, ['Cache-Control']),
          403: errorResponse('The token is not an ADMIN account'),
          ...ALWAYS,
          401: errorResponse('No bearer token, or a refused one', ['WWW-Authenticate']),
        },
      },
      delete: {
        tags,
        security: SIGNED_IN,
        operationId: 'resetSandboxes',
        summary: 'Reset every sandbox (ADMIN)',
        description: 'What `npm run classroom -- reset` does: every account reads the catalog again.',
        responses: {
          204: reset('Reset'),
          403: errorResponse('The token is not an ADMIN account'),
          ...ALWAYS,
          401: errorResponse('No bearer token, or a refused one', ['WWW-Authenticate']),
        },
      },
    },
    '/classroom': {
      get: {
        tags,
        operationId: 'getBoard',
        summary: "The teacher's board (a page)",
        description:
          "A page an ADMIN signs in on: each student's sandbox writes, last write and last reset, and the " +
          "class's writes per minute, updated live. Served by this server with its script and stylesheet (no " +
          'CDN).',
        responses: { 200: page('The page'), 304: response('NotModified'), ...ALWAYS_FREE },
      },
    },
    '/classroom/{file}': {
      get: {
        tags,
        operationId: 'getBoardFile',
        summary: "The board's script or stylesheet",
        parameters: [
          { name: 'file', in: 'path', required: true, schema: { type: 'string', enum: ['board.js', 'board.css'] } },
        ],
        responses: {
          200: page('The file'),
          304: response('NotModified'),
          404: response('NotFound'),
          ...ALWAYS_FREE,
        },
      },
    },
  };
}
