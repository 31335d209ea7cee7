import { GraphQLError } from 'graphql';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { withIncidentsReported } from '../src/graphql/incidents.ts';
import { HttpError } from '../src/lib/http-error.ts';

const path = ['episodes', 'items', 3, 'title'];

test('an error no resolver expected is logged once with its stack and a request id; the answer names the path and quotes the id, no details', () => {
  const lines: string[] = [];
  const unexpected = [3, 4].map(
    (i) =>
      new GraphQLError('boom', {
        path: ['episodes', 'items', i, 'title'],
        originalError: new TypeError("Cannot read properties of undefined (reading '/srv/secret')"),
      }),
  );
  const meant = new GraphQLError("'nope' is not a valid uuid", {
    path: ['actor'],
    originalError: new HttpError(400, "'nope' is not a valid uuid"),
  });
  const result = withIncidentsReported(
    { data: null, errors: [...unexpected, meant] },
    { warn: (line) => void lines.push(line) },
    'POST /api/graphql',
  );
  assert.is(lines.length, 1, 'one line for the request');
  const id = /request id (\w+)/.exec(lines[0]!)?.[1];
  assert.ok(id, lines[0]);
  assert.match(lines[0]!, /episodes\.items\.3\.title, episodes\.items\.4\.title/);
  assert.match(lines[0]!, /TypeError: Cannot read properties[\s\S]*\n\s+at /, 'the stack goes to the log');
  const errors = result!.errors!.map((e) => ({ message: e.message, path: e.path }));
  assert.equal(errors, [
    { message: `Internal error (request id ${id})`, path },
    { message: `Internal error (request id ${id})`, path: ['episodes', 'items', 4, 'title'] },
    { message: "'nope' is not a valid uuid", path: ['actor'] },
  ]);
});

test('a result whose errors were all meant is left as it is, and nothing is logged', () => {
  const lines: string[] = [];
  const meant = new GraphQLError('Unknown language', { path, originalError: new HttpError(400, 'Unknown language') });
  assert.is(
    withIncidentsReported(
      { data: null, errors: [meant] },
      { warn: (line) => void lines.push(line) },
      'POST /api/graphql',
    ),
    undefined,
  );
  assert.is(
    withIncidentsReported({ data: {} }, { warn: (line) => void lines.push(line) }, 'POST /api/graphql'),
    undefined,
  );
  assert.equal(lines, []);
});

test.run();
