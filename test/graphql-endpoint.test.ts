import { auditServer } from 'graphql-http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildClientSchema, getIntrospectionQuery, isObjectType, type IntrospectionQuery } from 'graphql';
import { FAMILIES } from '../src/catalog/families.ts';
import { typeName } from '../src/graphql/record-types.ts';
import { json, startApp } from './helpers/http.ts';
import { ROOT } from './helpers/spawn.ts';

const server = await startApp();
const endpoint = `${server.url}/api/graphql`;

type Answer = { data?: Record<string, unknown> | null; errors?: { message: string }[] };

async function post(
  query: string,
  variables?: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Answer }> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ query, ...(variables ? { variables } : {}) }),
  });
  return { status: response.status, body: await json<Answer>(response) };
}

test('passes every MUST and SHOULD of the GraphQL-over-HTTP audit that graphql-http ships', async () => {
  const results = await auditServer({ url: endpoint });
  const failed = results
    .filter((result) => result.status !== 'ok')
    .map((result) => `${result.name}: ${'reason' in result ? result.reason : ''}`);
  assert.ok(results.length > 50, `${results.length} audits ran`);
  assert.equal(failed, []);
});

test('a record by uuid answers what REST answers, its links resolved in the same language', async () => {
  const [first] = await json<{ uuid: string; title: string; season: string }[]>(
    await server.get('/api/v1/episodes?size=1&language=pt-BR'),
  );
  const season = await json<{ uuid: string; title: string }>(await server.get(`${first!.season}?language=pt-BR`));
  const { body } = await post(
    'query($uuid: ID!) { episode(uuid: $uuid, language: "PT-br") { uuid title language season { uuid title href } } }',
    { uuid: first!.uuid },
  );
  assert.equal(body.data, {
    episode: {
      uuid: first!.uuid,
      title: first!.title,
      language: 'pt-BR',
      season: { uuid: season.uuid, title: season.title, href: first!.season },
    },
  });
});

test('without a language argument, Accept-Language picks it as REST does', async () => {
  const { body } = await post('{ overview { language title } }', undefined, { 'Accept-Language': 'es;q=0.9, fr;q=1' });
  const rest = await json<{ title: string }>(
    await server.get('/api/v1/overview', { 'Accept-Language': 'es;q=0.9, fr;q=1' }),
  );
  assert.equal(body.data, { overview: { language: 'es-ES', title: rest.title } });
});

test('a page says its page, size and totals as the X-Pagination headers do', async () => {
  const rest = await server.get('/api/v1/characters?page=2&size=3');
  const { body } = await post('{ characters(page: 2, size: 3) { page size total_items total_pages items { uuid } } }');
  const page = (
    body.data as {
      characters: { page: number; size: number; total_items: number; total_pages: number; items: { uuid: string }[] };
    }
  ).characters;
  assert.is(page.page, 2);
  assert.is(page.size, 3);
  assert.is(String(page.total_items), rest.headers.get('x-pagination-item-total'));
  assert.is(String(page.total_pages), rest.headers.get('x-pagination-page-total'));
  assert.equal(
    page.items.map((r) => r.uuid),
    (await json<{ uuid: string }[]>(rest)).map((r) => r.uuid),
  );
});

test('a link a record lacks is null and the page is kept; integers of the JSON Schemas are Int or SafeInt', async () => {
  const { body } = await post(
    '{ seasons { items { season_num budget prev_season { title } next_season { title } } } episodes(size: 50) { items { episode_num duration next_episode { uuid } } } }',
  );
  assert.not.ok(body.errors, JSON.stringify(body.errors));
  const seasons = (body.data as { seasons: { items: { season_num: number; budget: number; prev_season: unknown }[] } })
    .seasons.items;
  assert.is(seasons.filter((s) => s.prev_season === null).length, 1, 'only the first season has no previous one');
  assert.ok(seasons.every((s) => Number.isInteger(s.season_num) && Number.isInteger(s.budget)));
  const episodes = (body.data as { episodes: { items: { next_episode: unknown }[] } }).episodes.items;
  assert.ok(episodes.some((e) => e.next_episode === null) && episodes.some((e) => e.next_episode !== null));
  const sdl = await (await server.get('/api/graphql/schema.graphql')).text();
  assert.match(sdl, /\n  episode_num: Int\n/);
  assert.match(sdl, /\n  budget: SafeInt\n/);
  assert.match(sdl, /\n  prev_season: Season\n/);
});

test('a repeated GET query is a cacheable read: strong ETag, 304, Cache-Control public; a random one is never kept', async () => {
  const url = `${endpoint}?query=${encodeURIComponent('{ seasons { items { title episodes { title } } } }')}`;
  const first = await fetch(url);
  assert.is(first.status, 200);
  const etag = first.headers.get('etag');
  assert.match(etag ?? '', /^"[\w-]+"$/);
  assert.match(first.headers.get('cache-control') ?? '', /^public, max-age=\d+$/);
  // fetch adds `Cache-Control: no-cache` to a conditional request unless it carries one of its own.
  const again = await fetch(url, { headers: { 'If-None-Match': etag!, 'Cache-Control': 'max-age=0' } });
  assert.is(again.status, 304);
  const random = await fetch(`${endpoint}?query=${encodeURIComponent('{ random_actor { uuid } }')}`);
  assert.is(random.headers.get('cache-control'), 'no-store');
  assert.is(random.headers.get('etag'), null);
});

test('a filter value of the wrong type, an unknown language and a malformed uuid are errors that name them', async () => {
  const wrong = await post('{ episodes(filter: { release_date: { gt: "yesterday" } }) { total_items } }');
  assert.match(wrong.body.errors?.[0]?.message ?? '', /release_date|'yesterday'/);
  const language = await post('{ episodes(language: "xx") { total_items } }');
  assert.match(language.body.errors?.[0]?.message ?? '', /Unknown language 'xx'; available: en-US/);
  const uuid = await post('{ actor(uuid: "nope") { uuid } }');
  assert.match(uuid.body.errors?.[0]?.message ?? '', /'nope' is not a valid uuid/);
});

const deep = `{ actors { items { ${'character { actor { '.repeat(6)}uuid${' } }'.repeat(6)} } } }`;
const HOSTILE: [string, () => Promise<{ status: number; body: Answer }>, RegExp][] = [
  ['depth through two-way links', () => post(deep), /depth limit of 10 exceeded, found \d+/],
  [
    'aliases',
    () => post(`{ ${Array.from({ length: 30 }, (_, i) => `a${i}: overview { title }`).join(' ')} }`),
    /Aliases limit of 20 exceeded, found 30/,
  ],
  [
    'cost',
    () =>
      post('{ seasons(size: 50) { items { episodes { season { episodes { season { episodes { title } } } } } } } }'),
    /Cost limit of 20000 exceeded, found \d+/,
  ],
  [
    'document size',
    () => post(`{ overview { title } } # ${'x'.repeat(20_000)}`),
    /Document size limit of 16384 bytes exceeded, found \d+/,
  ],
  ['tokens', () => post(`{ overview { ${'title '.repeat(2100)}} }`), /Token limit of 2000 exceeded/],
  [
    'fragment cycle',
    () => post('query { ...A } fragment A on Query { ...B } fragment B on Query { ...A }'),
    /Cannot spread fragment "A" within itself/,
  ],
  [
    'batched array',
    async () => {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify([{ query: '{ overview { title } }' }, { query: '{ overview { title } }' }]),
      });
      return { status: response.status, body: await json<Answer>(response) };
    },
    /Batched operations are not supported.*got an array of 2/,
  ],
];

for (const [name, send, message] of HOSTILE) {
  test(`a hostile query (${name}) is refused before execution, naming the limit, while another client is answered`, async () => {
    const [refused, ordinary] = await Promise.all([send(), server.get('/api/v1/episodes?size=1')]);
    assert.match(refused.body.errors?.map((e) => e.message).join('; ') ?? '', message);
    assert.not.ok(refused.body.data, 'nothing was executed');
    assert.is(ordinary.status, 200);
  });
}

test('introspection stays on and fits within the cost limit', async () => {
  const { body } = await post(
    '{ __schema { queryType { name } types { name fields { name args { name type { name kind ofType { name kind } } } } } } }',
  );
  assert.not.ok(body.errors, JSON.stringify(body.errors));
  assert.is((body.data as { __schema: { queryType: { name: string } } }).__schema.queryType.name, 'Query');
});

test('every field of every family schema is a field of its GraphQL type, as introspection reports it', async () => {
  const { body } = await post(getIntrospectionQuery());
  const schema = buildClientSchema(body.data as unknown as IntrospectionQuery);
  for (const family of FAMILIES.values()) {
    const type = schema.getType(typeName(family));
    assert.ok(type && isObjectType(type), typeName(family));
    const fields = Object.keys(type.getFields());
    for (const name of Object.keys(family.schema.properties ?? {}))
      assert.ok(fields.includes(name), `${typeName(family)}.${name}`);
    for (const name of family.translation?.fields ?? [])
      assert.ok(fields.includes(name), `${typeName(family)}.${name} (translated)`);
  }
});

test('the SDL is downloadable, equal to the file npm run schemas writes beside the JSON Schemas', async () => {
  const response = await server.get('/api/graphql/schema.graphql');
  assert.is(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
  assert.is(await response.text(), await readFile(join(ROOT, 'data', 'schemas', 'catalog.graphql'), 'utf8'));
});

test("every GraphQL request counts once in the caller's budget, with the REST headers and 429", async () => {
  const limited = await startApp({ RATE_LIMIT: 'on', RATE_LIMIT_ANONYMOUS: '4' });
  try {
    const get = `${limited.url}/api/graphql?query=${encodeURIComponent('{ overview { title } }')}`;
    const post = () =>
      fetch(`${limited.url}/api/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"query":"{ overview { title } }"}',
      });
    const answers = [await fetch(get), await fetch(get), await post(), await post(), await fetch(get)];
    assert.equal(
      answers.map((a) => a.status),
      [200, 200, 200, 200, 429],
    );
    assert.equal(
      answers.slice(0, 4).map((a) => a.headers.get('x-rate-limit-remaining')),
      ['3', '2', '1', '0'],
    );
    const refused = await json<{ code: number; message: string }>(answers[4]!);
    assert.is(refused.code, 429);
    assert.ok(answers[4]!.headers.get('retry-after'));
  } finally {
    await limited.close();
  }
});

test.after(() => server.close());
test.run();
