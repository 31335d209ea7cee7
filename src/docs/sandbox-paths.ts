import { ALWAYS, errorResponse, headerRefs, COMMON_HEADERS, success } from './responses.ts';
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
        'As `npm run catalog -- changes` prints them: a line per write (number, time, account, request), then a line per row it changed, or why it no longer applies',
    },
  },
};

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
          "In classroom mode, an account below MAINTAINER writes to a sandbox of its own: its reads see the catalog with its changes, everyone else's the catalog without them. This lists them.",
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
  };
}
