import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { json, startApp } from './helpers/http.ts';

// The compiled server with its default limits; close() fails on any 500 or stack trace logged.
const server = await startApp();
const endpoint = `${server.url}/api/graphql`;
const GRAPHQL_RESPONSE = 'application/graphql-response+json';

type Answer = { data?: unknown; errors?: { message: string }[] };

async function answer(response: Response): Promise<{ status: number; body: Answer }> {
  return { status: response.status, body: await json<Answer>(response) };
}

/** A POST of `body` as it is written (so a test may send JSON no serializer makes, like 1e400). */
function postText(body: string): Promise<{ status: number; body: Answer }> {
  return fetch(endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: GRAPHQL_RESPONSE },
    body,
  }).then(answer);
}

const post = (query: string, variables?: Record<string, unknown>, operationName?: string) =>
  postText(JSON.stringify({ query, variables, operationName }));

const sizeQuery = 'query($s: Int) { episodes(size: $s) { items { title } } }';
const filterQuery = 'query($f: EpisodeFilter) { episodes(filter: $f) { total_items } }';
const fragments = `query { ...F0 } ${Array.from({ length: 30 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`).join(' ')} fragment F30 on Query { overview { title } }`;
const through = (n: number) =>
  `{ seasons { items { ${'next_season { prev_season { '.repeat(n)}title${' } }'.repeat(n)} } } }`;

const CASES: [string, () => Promise<{ status: number; body: Answer }>, RegExp][] = [
  [
    'a variable of the wrong type',
    () => post(sizeQuery, { s: 'abc' }),
    /Variable "\$s" got invalid value "abc"; Int cannot represent/,
  ],
  [
    'a missing Int! variable',
    () => post('query($s: Int!) { episodes(size: $s) { items { title } } }'),
    /Variable "\$s" of required type "Int!" was not provided/,
  ],
  [
    'a variable of 1e400',
    () => postText(`{"query":${JSON.stringify(sizeQuery)},"variables":{"s":1e400}}`),
    /Variable "\$s" got invalid value Infinity/,
  ],
  [
    'a variable of the wrong type, by GET',
    () =>
      fetch(`${endpoint}?query=${encodeURIComponent(sizeQuery)}&variables=${encodeURIComponent('{"s":"abc"}')}`, {
        headers: { Accept: GRAPHQL_RESPONSE },
      }).then(answer),
    /Variable "\$s" got invalid value "abc"/,
  ],
  [
    'a filter variable nested 10,000 arrays deep',
    () =>
      postText(
        `{"query":${JSON.stringify(filterQuery)},"variables":{"f":{"duration":{"in":${'['.repeat(10_000)}1${']'.repeat(10_000)}}}}}`,
      ),
    /Variables depth limit of 10 exceeded/,
  ],
  [
    'a filter variable of 3,000 values',
    () => post(filterQuery, { f: { duration: { in: Array.from({ length: 3000 }, (_, i) => i) } } }),
    /Variables size limit of 2000 values exceeded/,
  ],
  ['fragments spreading fragments twice, 30 deep', () => post(fragments), /Field limit of 1000 exceeded/],
  [
    'one field repeated 490 times',
    () => post(`{ ${'overview { title } '.repeat(490)}}`),
    /Field limit of 1000 exceeded/,
  ],
  [
    'one leaf repeated 1,900 times',
    () => post(`{ overview { ${'title '.repeat(1900)}} }`),
    /Field limit of 1000 exceeded/,
  ],
  ['nesting through two-way links', () => post(through(6)), /depth limit of 10 exceeded, found \d+/],
  [
    'nesting through two-way links in fragments',
    () =>
      post(
        '{ seasons { items { ...A } } } fragment A on Season { next_season { prev_season { next_season { prev_season { next_season { prev_season { next_season { prev_season { next_season { prev_season { title } } } } } } } } } } }',
      ),
    /depth limit of 10 exceeded/,
  ],
  [
    'an alias flood',
    () => post(`{ ${Array.from({ length: 300 }, (_, i) => `a${i}: overview { title }`).join(' ')} }`),
    /Aliases limit of 20 exceeded, found 300/,
  ],
  [
    'a directive flood',
    () => post(`{ overview { title ${'@include(if: true) '.repeat(400)}} }`),
    /Token limit of 2000 exceeded/,
  ],
  [
    'a repeated directive within the token limit',
    () => post(`{ overview { title ${'@include(if: true) '.repeat(250)}} }`),
    /The directive "@include" can only be used once at this location/,
  ],
  [
    'a fragment cycle',
    () => post('query { ...A } fragment A on Query { ...B } fragment B on Query { ...A }'),
    /Cannot spread fragment "A" within itself/,
  ],
  [
    'a cost over the limit',
    () =>
      post('{ seasons(size: 50) { items { episodes { season { episodes { season { episodes { title } } } } } } } }'),
    /Cost limit of 20000 exceeded, found \d+/,
  ],
  [
    'an unknown operation name',
    () => post('query A { overview { title } }', undefined, 'B'),
    /Unknown operation named "B"/,
  ],
  [
    'a batch',
    () => postText(JSON.stringify([{ query: '{ overview { title } }' }, { query: '{ overview { title } }' }])),
    /Batched operations are not supported.*got an array of 2/,
  ],
];

for (const [name, send, message] of CASES) {
  test(`${name}: a 4xx GraphQL error naming what was refused, nothing executed, no 500`, async () => {
    const [refused, ordinary] = await Promise.all([send(), server.get('/api/v1/episodes?size=1')]);
    assert.ok(refused.status >= 400 && refused.status < 500, `status ${refused.status}`);
    assert.match(refused.body.errors?.map((e) => e.message).join('; ') ?? '', message);
    assert.not.ok(refused.body.data, 'nothing was executed');
    assert.is(ordinary.status, 200);
  });
}

test('a legacy client (Accept: application/json) gets the same errors with 200, as GraphQL over HTTP prescribes', async () => {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ query: sizeQuery, variables: { s: 'abc' } }),
  });
  assert.is(response.status, 200);
  assert.match((await json<Answer>(response)).errors?.[0]?.message ?? '', /Variable "\$s" got invalid value/);
});

test('a page whose records lack a link answers null for it and keeps every record', async () => {
  const { status, body } = await post(
    '{ episodes(size: 50) { items { title next_episode { title } prev_episode { title } } } }',
  );
  assert.is(status, 200);
  assert.not.ok(body.errors, JSON.stringify(body.errors));
  const items = (body.data as { episodes: { items: { next_episode: unknown }[] } }).episodes.items;
  assert.is(items.length, Number((await server.get('/api/v1/episodes?size=1')).headers.get('x-pagination-item-total')));
  assert.ok(items.some((e) => e.next_episode === null));
});

test.after(() => server.close());
test.run();
