import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  buildSchema,
  getNamedType,
  GraphQLID,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLInputType,
} from 'graphql';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { tokenWithRole } from './helpers/admin.ts';
import { graphqlCall } from './helpers/curator-calls.ts';
import { registered } from './helpers/accounts-app.ts';
import { dataFile, startApp, tempDir } from './helpers/http.ts';
import { ROOT } from './helpers/spawn.ts';

type Json = Record<string, unknown>;
type GraphQLAnswer = { status: number; data?: Json | null; errors?: { message: string; extensions?: Json }[] };

const app = await startApp({}, await tempDir());
const maintainer = await tokenWithRole(app, 'MAINTAINER', 'gqlmaint');
const basic = await registered(app.url, 'gqlreader');
const season = (await dataFile('seasons.json'))[0]!;

// Set up at the top level, not in test.before: uvu 0.5 reports a failing before hook as a pass.
const test = suite('GraphQL mutations: the REST writes, by POST /api/graphql');
test.after(async () => app.close());

async function graphql(query: string, variables: Json = {}, token: string = maintainer): Promise<GraphQLAnswer> {
  const { status, body } = await graphqlCall(app, token || undefined, query, variables);
  return { ...body, status };
}

async function rest(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; etag: string; body: Json }> {
  const response = await fetch(app.url + path, {
    method,
    headers: {
      Authorization: `Bearer ${maintainer}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    etag: response.headers.get('etag') ?? '',
    body: text ? (JSON.parse(text) as Json) : {},
  };
}

/** The one error of an answer, with its REST status. */
function refusal(answer: GraphQLAnswer): { status: unknown; message: string } {
  assert.ok(answer.errors?.length, JSON.stringify(answer));
  assert.is(answer.errors!.length, 1, JSON.stringify(answer.errors));
  return { status: answer.errors![0]!.extensions?.status, message: answer.errors![0]!.message };
}

/** A record as REST reads it, without what the server sets on each write (and an episode's place in its season). */
function comparable(record: Json): Json {
  const {
    uuid: _u,
    href: _h,
    created_at: _c,
    updated_at: _t,
    episode_num: _n,
    prev_episode: _p,
    next_episode: _x,
    ...rest
  } = record;
  return rest;
}

/** Per family: a new record, and a patch that changes one field and removes another. */
const WRITES: Record<string, { singular: string; type: string; input: Json; patch: Json }> = {
  actors: {
    singular: 'actor',
    type: 'Actor',
    input: {
      first_name: 'Gql',
      last_name: 'Tester',
      gender: 1,
      nicknames: ['G'],
      socials: [{ social: 'Mastodon', handle: '@g', url: 'https://example.org/@g' }],
    },
    patch: { last_name: null, nationality: 'Brazilian' },
  },
  characters: {
    singular: 'character',
    type: 'Character',
    input: { first_name: 'Gql', last_name: 'Char' },
    patch: { last_name: null, nicknames: ['C'] },
  },
  episodes: {
    singular: 'episode',
    type: 'Episode',
    input: { title: 'Gql Episode', description: 'Made by a mutation', duration: 1_200_000, season: season.href },
    patch: { description: null, title: 'Renamed Episode' },
  },
  seasons: {
    singular: 'season',
    type: 'Season',
    input: { title: 'Gql Season', budget: 5_000_000_000 },
    patch: { budget: null, title: 'Renamed Season' },
  },
  locations: {
    singular: 'location',
    type: 'Location',
    input: { name: 'Gql Pier', description: 'By the water' },
    patch: { description: null, name: 'Renamed Pier' },
  },
  soundtracks: {
    singular: 'soundtrack',
    type: 'Soundtrack',
    input: { name: 'Gql Song', duration: 200_000, artist: 'Someone' },
    patch: { artist: null, album: 'An LP' },
  },
  games: {
    singular: 'game',
    type: 'Game',
    input: { name: 'Gql Game', playtime: 10, platforms: ['PC'] },
    patch: { playtime: null, name: 'Renamed Game' },
  },
};

for (const [family, { singular, type, input, patch }] of Object.entries(WRITES)) {
  test(`${family}: create, update and delete through GraphQL equal REST's (read back by REST)`, async () => {
    const made = await graphql(
      `mutation ($input: ${type}Input!) { create_${singular}(input: $input) { uuid href updated_at } }`,
      { input },
    );
    assert.equal(made.errors, undefined, JSON.stringify(made.errors));
    const created = made.data![`create_${singular}`] as Json;
    const byGraphQL = await rest('GET', String(created.href));
    assert.is(byGraphQL.status, 200);
    assert.is(byGraphQL.body.updated_at, created.updated_at);
    const byRest = await rest('POST', `/api/v1/${family}`, input);
    assert.is(byRest.status, 201, JSON.stringify(byRest.body));
    assert.equal(comparable(byGraphQL.body), comparable(byRest.body));

    const changed = await graphql(
      `mutation ($uuid: ID!, $patch: ${type}Patch!) { update_${singular}(uuid: $uuid, patch: $patch) { uuid } }`,
      { uuid: created.uuid, patch },
    );
    assert.equal(changed.errors, undefined, JSON.stringify(changed.errors));
    const patchedByRest = await rest('PATCH', String(byRest.body.href), patch);
    assert.is(patchedByRest.status, 200, JSON.stringify(patchedByRest.body));
    assert.equal(comparable((await rest('GET', String(created.href))).body), comparable(patchedByRest.body));

    const gone = await graphql(`mutation ($uuid: ID!) { delete_${singular}(uuid: $uuid) }`, { uuid: created.uuid });
    assert.equal(gone.data, { [`delete_${singular}`]: created.uuid });
    assert.is((await rest('GET', String(created.href))).status, 404);
    assert.is((await rest('DELETE', String(byRest.body.href))).status, 204);
  });
}

const languages = ((await rest('GET', '/api/v1/overview')).body.languages as string[]).filter((l) => l !== 'en-US');
const newLocation = async (name: string) => (await rest('POST', '/api/v1/locations', { name })).body;
const CREATE_LOCATION = 'mutation ($input: LocationInput!) { create_location(input: $input) { uuid } }';
const RENAME_LOCATION =
  'mutation ($uuid: ID!, $name: String, $tag: String) { update_location(uuid: $uuid, patch: { name: $name }, if_match: $tag) { name } }';

test('roles: anonymous 401 and BASIC 403 with REST’s messages, MAINTAINER writes; nothing changes when refused', async () => {
  const before = (await rest('GET', '/api/v1/locations?size=1')).body;
  const anonymous = await graphql(CREATE_LOCATION, { input: { name: 'Nobody’s' } }, '');
  assert.equal(refusal(anonymous), {
    status: 401,
    message:
      "mutation create_location changes the catalog: send a MAINTAINER or ADMIN account's token (Authorization: Bearer <token>)",
  });
  assert.is(anonymous.data, null);
  const reader = refusal(await graphql(CREATE_LOCATION, { input: { name: 'Reader’s' } }, basic));
  assert.is(reader.status, 403);
  assert.match(
    reader.message,
    /^Account 'user_gqlreader' is BASIC: only MAINTAINER and ADMIN accounts change the catalog$/,
  );
  assert.equal((await rest('GET', '/api/v1/locations?size=1')).body, before);
  const made = await graphql(CREATE_LOCATION, { input: { name: 'Curator’s' } });
  assert.equal(made.errors, undefined);
});

/** A value of `type` that passes GraphQL's validation: required input fields filled, the rest left out. */
function sample(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return sample(type.ofType);
  if (isListType(type)) return [sample(type.ofType)];
  if (isInputObjectType(type))
    return Object.fromEntries(
      Object.values(type.getFields())
        .filter((field) => isNonNullType(field.type))
        .map((field) => [field.name, sample(field.type)]),
    );
  if (type === GraphQLID) return '00000000-0000-4000-8000-000000000000';
  if (type.name === 'Int' || type.name === 'Float') return 1;
  if (type.name === 'Boolean') return true;
  return 'x';
}

test('every mutation of the schema, on a record that does not exist, admits the caller first, as REST does', async () => {
  const schema = buildSchema(await readFile(join(ROOT, 'data', 'schemas', 'catalog.graphql'), 'utf8'));
  const fields = Object.values(schema.getMutationType()!.getFields());
  assert.ok(fields.length > 30, `${fields.length} mutations`);
  const rest = await fetch(`${app.url}/api/v1/locations/00000000-0000-4000-8000-000000000000`, { method: 'DELETE' });
  assert.is(rest.status, 401);
  for (const field of fields) {
    const declared = field.args.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
    const passed = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
    const selection = isScalarType(getNamedType(field.type)) ? '' : ' { uuid }';
    const query = `mutation${declared ? ` (${declared})` : ''} { ${field.name}${passed ? `(${passed})` : ''}${selection} }`;
    const variables = Object.fromEntries(field.args.map((arg) => [arg.name, sample(arg.type)]));
    assert.equal(refusal(await graphql(query, variables, '')), {
      status: 401,
      message: `mutation ${field.name} changes the catalog: send a MAINTAINER or ADMIN account's token (Authorization: Bearer <token>)`,
    });
    assert.equal(refusal(await graphql(query, variables, basic)), {
      status: 403,
      message: "Account 'user_gqlreader' is BASIC: only MAINTAINER and ADMIN accounts change the catalog",
    });
  }
});

test('hostile inputs that GraphQL refuses before running: wrong types, unknown keys, __proto__ (400, nothing written)', async () => {
  const before = (await rest('GET', '/api/v1/locations?size=1')).body;
  const bodies = [
    { input: { name: 5 } },
    { input: { name: 'Pier', colour: 'red' } },
    { input: { name: ['list'] } },
    { input: 'Pier' },
  ];
  for (const variables of bodies) {
    const answer = await graphql(CREATE_LOCATION, variables);
    assert.is(answer.status, 400, JSON.stringify(variables));
    assert.ok(answer.errors?.length, JSON.stringify(answer));
    for (const error of answer.errors!) assert.is(error.extensions?.status, 400, error.message);
  }
  // A `__proto__` key in the JSON body is refused by the body reader itself (the REST writes' 400), in the error shape.
  for (const variables of [
    '{ "name": "Pier", "__proto__": { "admin": true } }',
    '{ "__proto__": null, "name": "Pier" }',
  ]) {
    const response = await fetch(`${app.url}/api/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${maintainer}` },
      body: `{ "query": ${JSON.stringify(CREATE_LOCATION)}, "variables": { "input": ${variables} } }`,
    });
    assert.is(response.status, 400);
    assert.match(String(((await response.json()) as Json).message), /__proto__/);
  }
  // A string larger than any body either face reads: the body's limit (413), in the error shape.
  const huge = await graphql(CREATE_LOCATION, { input: { name: 'x'.repeat(70_000) } });
  assert.is(huge.status, 413);
  const literal = await graphql('mutation { create_location(input: { name: "Pier", __proto__: "x" }) { uuid } }');
  assert.is(literal.status, 400);
  assert.is(refusal(literal).status, 400);
  assert.equal((await rest('GET', '/api/v1/locations?size=1')).body, before);
});

test('hostile inputs the writer refuses answer the REST route’s status for the same body, never a 500', async () => {
  const missing = `/api/v1/actors/${crypto.randomUUID()}`;
  const cases: { path: string; type: string; singular: string; input: Json }[] = [
    { path: '/api/v1/locations', type: 'Location', singular: 'location', input: { name: 'Pier', language: 'xx-XX' } },
    {
      path: '/api/v1/locations',
      type: 'Location',
      singular: 'location',
      input: { name: 'Pier', language: 'not a tag' },
    },
    {
      path: '/api/v1/characters',
      type: 'Character',
      singular: 'character',
      input: { first_name: 'A', actor: missing },
    },
    { path: '/api/v1/actors', type: 'Actor', singular: 'actor', input: { first_name: 'A', seasons: ['/nowhere'] } },
    { path: '/api/v1/actors', type: 'Actor', singular: 'actor', input: { first_name: 'A', gender: 5 } },
    { path: '/api/v1/episodes', type: 'Episode', singular: 'episode', input: { title: 'T', season: missing } },
  ];
  for (const { path, type, singular, input } of cases) {
    const byRest = await rest('POST', path, input);
    assert.ok(byRest.status >= 400 && byRest.status < 500, `${path} ${JSON.stringify(byRest.body)}`);
    const answer = await graphql(`mutation ($input: ${type}Input!) { create_${singular}(input: $input) { uuid } }`, {
      input,
    });
    const { status, message } = refusal(answer);
    assert.is(status, byRest.status, message);
    assert.is(message, byRest.body.message);
  }
  const required = await newLocation('Keeps its name');
  const removal = refusal(await graphql(RENAME_LOCATION, { uuid: required.uuid, name: null }));
  const byRest = await rest('PATCH', String(required.href), { name: null });
  assert.equal(removal, { status: byRest.status, message: byRest.body.message });
  assert.is(removal.status, 400);
  const unknown = await graphql(RENAME_LOCATION, { uuid: crypto.randomUUID(), name: 'x' });
  assert.is(refusal(unknown).status, 404);
  assert.is(refusal(await graphql(RENAME_LOCATION, { uuid: 'nope', name: 'x' })).status, 400);
  const empty = await graphql('mutation ($uuid: ID!) { update_location(uuid: $uuid, patch: {}) { uuid } }', {
    uuid: (await newLocation('Empty patch')).uuid,
  });
  assert.is(refusal(empty).status, 400);
});

test('if_match: the ETag REST answered lets the write through once; a stale one is the 412', async () => {
  const location = await newLocation('Tagged');
  const { etag } = await rest('GET', String(location.href));
  const first = await graphql(RENAME_LOCATION, { uuid: location.uuid, name: 'Tagged once', tag: etag });
  assert.equal(first.data, { update_location: { name: 'Tagged once' } });
  const stale = refusal(await graphql(RENAME_LOCATION, { uuid: location.uuid, name: 'Tagged twice', tag: etag }));
  assert.is(stale.status, 412);
  assert.match(stale.message, /is not the current ETag of \/api\/v1\/locations\//);
  assert.is((await rest('GET', String(location.href))).body.name, 'Tagged once');
  const staleDelete = await graphql(
    'mutation ($uuid: ID!, $tag: String) { delete_location(uuid: $uuid, if_match: $tag) }',
    {
      uuid: location.uuid,
      tag: etag,
    },
  );
  assert.is(refusal(staleDelete).status, 412);
});

test('concurrent writers with the same if_match: exactly one wins, the others get the 412', async () => {
  const location = await newLocation('Contended');
  const { etag } = await rest('GET', String(location.href));
  const answers = await Promise.all(
    ['A', 'B', 'C', 'D'].map((who) =>
      graphql(RENAME_LOCATION, { uuid: location.uuid, name: `Won by ${who}`, tag: etag }),
    ),
  );
  const won = answers.filter((answer) => !answer.errors);
  assert.is(won.length, 1, JSON.stringify(answers));
  for (const lost of answers.filter((answer) => answer.errors)) assert.is(refusal(lost).status, 412);
  const name = (won[0]!.data!.update_location as Json).name;
  assert.is((await rest('GET', String(location.href))).body.name, name);
});

test('a mutation by GET is refused (405, Allow: POST) and changes nothing', async () => {
  const location = await newLocation('Not by GET');
  const query = `mutation { delete_location(uuid: "${String(location.uuid)}") }`;
  const response = await fetch(`${app.url}/api/graphql?query=${encodeURIComponent(query)}`, {
    headers: { Authorization: `Bearer ${maintainer}`, Accept: 'application/graphql-response+json' },
  });
  assert.is(response.status, 405);
  assert.is(response.headers.get('allow'), 'POST');
  assert.match(JSON.stringify(await response.json()), /Cannot perform mutations over GET/);
  assert.is((await rest('GET', String(location.href))).status, 200);
});

test('translations: create, update and delete one as the REST translation routes do', async () => {
  const language = languages[0]!;
  const location = await newLocation('Translated');
  const made = await graphql(
    'mutation ($uuid: ID!, $input: LocationTranslationInput!) { create_location_translation(uuid: $uuid, input: $input) { language name languages } }',
    { uuid: location.uuid, input: { language, name: 'Traduzido', description: 'Descrição' } },
  );
  assert.equal(made.data, {
    create_location_translation: { language, name: 'Traduzido', languages: ['en-US', language] },
  });
  const path = `${String(location.href)}/translations/${language}`;
  assert.equal((await rest('GET', path)).body, { language, name: 'Traduzido', description: 'Descrição' });
  const again = await graphql(
    'mutation ($uuid: ID!, $input: LocationTranslationInput!) { create_location_translation(uuid: $uuid, input: $input) { name } }',
    { uuid: location.uuid, input: { language, name: 'Twice' } },
  );
  assert.is(
    refusal(again).status,
    (await rest('POST', `${String(location.href)}/translations`, { language, name: 'Twice' })).status,
  );
  const { etag } = await rest('GET', path);
  const changed = await graphql(
    'mutation ($uuid: ID!, $language: String!, $tag: String) { update_location_translation(uuid: $uuid, language: $language, patch: { description: null }, if_match: $tag) { name } }',
    { uuid: location.uuid, language: language.toLowerCase(), tag: etag },
  );
  assert.equal(changed.errors, undefined, JSON.stringify(changed.errors));
  assert.equal((await rest('GET', path)).body, { language, name: 'Traduzido' });
  const lacking = await graphql(
    'mutation ($uuid: ID!) { delete_location_translation(uuid: $uuid, language: "xx-XX") { uuid } }',
    { uuid: location.uuid },
  );
  assert.is(refusal(lacking).status, 404);
  const defaultOne = await graphql(
    'mutation ($uuid: ID!) { delete_location_translation(uuid: $uuid, language: "en-US") { uuid } }',
    { uuid: location.uuid },
  );
  assert.is(refusal(defaultOne).status, 409);
  const removed = await graphql(
    'mutation ($uuid: ID!, $language: String!) { delete_location_translation(uuid: $uuid, language: $language) { languages } }',
    { uuid: location.uuid, language },
  );
  assert.equal(removed.data, { delete_location_translation: { languages: ['en-US'] } });
  assert.is((await rest('GET', path)).status, 404);
});

test('the overview: update only (its translations too), read back by REST', async () => {
  const before = (await rest('GET', '/api/v1/overview')).body;
  const changed = await graphql('mutation { update_overview(patch: { creators: ["Someone Else"] }) { creators } }');
  assert.equal(changed.data, { update_overview: { creators: ['Someone Else'] } });
  assert.equal((await rest('GET', '/api/v1/overview')).body.creators, ['Someone Else']);
  const restored = await graphql('mutation ($c: [String!]) { update_overview(patch: { creators: $c }) { uuid } }', {
    c: before.creators ?? null,
  });
  assert.equal(restored.errors, undefined, JSON.stringify(restored.errors));
  assert.equal((await rest('GET', '/api/v1/overview')).body.creators, before.creators);
  const unknown = await graphql('mutation { create_overview(input: {}) { uuid } }');
  assert.is(unknown.status, 400);
});

test('socials: an actor’s social created, changed and removed as /api/v1/actors/{uuid}/socials does', async () => {
  const actor = (await rest('POST', '/api/v1/actors', { first_name: 'Social' })).body;
  const made = await graphql(
    'mutation ($uuid: ID!) { create_actor_social(uuid: $uuid, input: { social: "Mastodon", handle: "@s", url: "https://example.org/@s" }) { socials { social handle } } }',
    { uuid: actor.uuid },
  );
  assert.equal(made.data, { create_actor_social: { socials: [{ social: 'Mastodon', handle: '@s' }] } });
  const { etag } = await rest('GET', `${String(actor.href)}/socials/Mastodon`);
  const changed = await graphql(
    'mutation ($uuid: ID!, $tag: String) { update_actor_social(uuid: $uuid, social: "mastodon", patch: { handle: null }, if_match: $tag) { uuid } }',
    { uuid: actor.uuid, tag: etag },
  );
  assert.equal(changed.errors, undefined, JSON.stringify(changed.errors));
  assert.equal((await rest('GET', `${String(actor.href)}/socials/Mastodon`)).body, {
    social: 'Mastodon',
    url: 'https://example.org/@s',
  });
  const removed = await graphql(
    'mutation ($uuid: ID!) { delete_actor_social(uuid: $uuid, social: "Mastodon") { socials { social } } }',
    {
      uuid: actor.uuid,
    },
  );
  assert.equal(removed.data, { delete_actor_social: { socials: null } });
});

test.run();
