import { FAMILY_NAMES } from '../catalog/families.ts';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../changes/feed-query.ts';
import { ALWAYS, errorResponse, headerRefs, COMMON_HEADERS } from './responses.ts';
import { ref, type Json } from './schemas.ts';

const cursor = {
  type: 'string',
  description:
    'Opaque: hand it back as it is, never parse it (its shape may change; a server refuses shapes it no longer ' +
    'reads with a 400)',
};

/** What the change feed carries, for `components.schemas`. */
export const CHANGE_SCHEMAS: Record<string, Json> = {
  Change: {
    type: 'object',
    required: ['cursor', 'at', 'action'],
    properties: {
      cursor: { ...cursor, description: `Resume after this change with it. ${cursor.description}` },
      at: { type: 'string', format: 'date-time', description: 'When the change was made' },
      action: {
        enum: ['created', 'changed', 'deleted', 'reloaded', 'reset'],
        description:
          '`reloaded`: new data files are served (read again what you keep); `reset`: your own classroom sandbox ' +
          'was emptied',
      },
      family: { enum: FAMILY_NAMES },
      uuid: { type: 'string' },
      href: { type: 'string', description: 'Where what changed is read: the record, a translation, or a social' },
      language: { type: 'string', description: 'A translation change: its language' },
      social: { type: 'string', description: "A social change: the network's name" },
      deleted: { const: true, description: 'A tombstone: what `href` named is gone' },
      data: { type: 'string', description: '`reloaded`: the version of the data files now served' },
      sandbox: { const: true, description: 'A change of your own classroom sandbox, shown to you alone' },
      record: {
        description: '`include=records`: what `href` answers now (null when it is gone since); a tombstone has none',
      },
    },
  },
  ChangePage: {
    type: 'object',
    required: ['changes', 'last', 'more', 'version'],
    additionalProperties: false,
    properties: {
      changes: { type: 'array', items: ref('Change') },
      last: { ...cursor, description: `The cursor after this page: the next page's \`since\`. ${cursor.description}` },
      more: { type: 'boolean', description: 'Whether more changes follow (then `Link` names the next page)' },
      version: { type: 'string', description: 'The data version now (the `Catalog-Version` header)' },
    },
  },
};

const parameter = (name: string, description: string, schema: Json): Json => ({
  name,
  in: 'query',
  description,
  schema,
});

/**
 * `GET /api/v1/changes`: the change feed, a page of JSON or a stream of server-sent events.
 *
 * @example
 * Object.keys(changePaths()); // ['/api/v1/changes']
 */
export function changePaths(): Record<string, Json> {
  return {
    '/api/v1/changes': {
      get: {
        tags: ['Changes'],
        operationId: 'listChanges',
        summary: 'What changed since a cursor, as a page or a live stream',
        description:
          "Every change of the catalog after `since`, oldest first: the curators' writes (one per record, " +
          'translation or social), and new data files (`reloaded`). A student with a classroom sandbox also sees ' +
          'its own writes and resets. With `Accept: text/event-stream` the same changes, then each new one as it ' +
          'is made, as server-sent events (`id:` is the cursor; `Last-Event-ID` resumes). See docs/changes.md.',
        parameters: [
          parameter(
            'since',
            "A cursor from this feed (a change's, `last`, or `Catalog-Version`), or `now`; absent: from the " +
              'first change kept',
            { type: 'string' },
          ),
          parameter(
            'limit',
            `At most this many changes (default ${DEFAULT_LIMIT}; larger values are served ${MAX_LIMIT})`,
            { type: 'integer', minimum: 1 },
          ),
          parameter('family', 'Only changes of these families, comma-separated', { type: 'string' }),
          parameter(
            'include',
            '`records`: each change with what its `href` answers now; `sandboxes` (classroom mode, an ADMIN, a ' +
              "stream): also an `event: sandbox` with a student's summary each time its sandbox changes (the " +
              "teacher's board). Comma-separated",
            { type: 'string' },
          ),
          parameter('language', 'The language of the records `include=records` adds', { type: 'string' }),
          {
            name: 'Last-Event-ID',
            in: 'header',
            description: 'A stream resuming after this cursor (wins over `since`)',
            schema: { type: 'string' },
          },
        ],
        responses: {
          200: {
            description: 'A page of changes, or (with `Accept: text/event-stream`) a stream of them',
            headers: headerRefs(['Link', 'Cache-Control', ...COMMON_HEADERS]),
            content: {
              'application/json': { schema: ref('ChangePage') },
              'text/event-stream': { schema: { type: 'string' } },
            },
          },
          403: errorResponse('`include=sandboxes` asked by an account that is not an ADMIN'),
          410: errorResponse(
            'The cursor cannot be resumed: the changes after it are no longer kept (an export folded them into ' +
              'the data files) or it is of another catalog. Read the catalog again from scratch, then follow the ' +
              'feed from `Catalog-Version`',
          ),
          ...ALWAYS,
        },
      },
    },
  };
}
