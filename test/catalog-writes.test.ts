import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { tokenWithRole } from './helpers/admin.ts';
import { registered } from './helpers/accounts-app.ts';
import { dataFile, startApp, tempDir, type TestServer } from './helpers/http.ts';
import { readOverlayFile } from './helpers/overlay-file.ts';

type Json = Record<string, unknown>;

const dir = await tempDir();
const app = await startApp({}, dir);
const maintainer = await tokenWithRole(app, 'MAINTAINER', 'maint');
const admin = await tokenWithRole(app, 'ADMIN', 'adm');
const basic = await registered(app.url, 'reader');
const dev = await tokenWithRole(app, 'DEV', 'dev');

// Set up at the top level, not in test.before: uvu 0.5 reports a failing before hook as a pass.
const test = suite('catalog writes through the API');

/** What the server has kept of the catalog writes (its overlay file beside the accounts): unchanged when nothing was written. */
const catalogTag = () => readFile(join(dir, 'catalog-overlay.json'), 'utf8').catch(() => 'no overlay');
test.after(async () => app.close());

async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  token = maintainer,
): Promise<{ status: number; headers: Headers; body: Json }> {
  const response = await fetch(app.url + path, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Json) : {} };
}

const seasons = await dataFile('seasons.json');
const soundtracks = await dataFile('soundtracks.json');
const season = seasons[0]!;
const newEpisode = (title: string) => ({
  title,
  description: 'Written through the API',
  language: 'en-US',
  duration: 1_200_000,
  season: season.href,
  thumbnail: 'https://example.org/e.png',
});

test('no token is a 401, BASIC and DEV are 403, MAINTAINER and ADMIN create (201)', async () => {
  const anonymous = await call('POST', '/api/v1/locations', { name: 'Pier', language: 'en-US' }, {}, '');
  assert.is(anonymous.status, 401);
  assert.is(anonymous.headers.get('www-authenticate'), 'Bearer');
  for (const token of [basic, dev]) {
    const refused = await call('POST', '/api/v1/locations', { name: 'Pier' }, {}, token);
    assert.is(refused.status, 403);
    assert.match(String(refused.body.message), /only MAINTAINER and ADMIN/);
  }
  for (const token of [maintainer, admin]) {
    const made = await call('POST', '/api/v1/locations', { name: `Pier ${token === admin ? 'B' : 'A'}` }, {}, token);
    assert.is(made.status, 201, JSON.stringify(made.body));
  }
});

test('the role matrix on every write route of the OpenAPI document: no token 401, BASIC and DEV 403', async () => {
  const doc = (await (await app.get('/api/openapi.json')).json()) as {
    paths: Record<string, Record<string, { security?: unknown[] }>>;
  };
  const routes = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(
        ([method, operation]) =>
          ['post', 'patch', 'delete'].includes(method) &&
          operation.security?.length &&
          !path.startsWith('/api/v1/auth'),
      )
      .map(([method]) => ({
        method: method.toUpperCase(),
        path: path
          .replace('{uuid}', '0b9d3c0e-1c1e-4a5b-9c1d-2e3f4a5b6c7d')
          .replace('{language}', 'pt-BR')
          .replace('{social}', 'Instagram'),
      })),
  );
  assert.ok(routes.length >= 30, `${routes.length} write routes documented`);
  const version = await catalogTag();
  for (const { method, path } of routes) {
    assert.is((await call(method, path, {}, {}, '')).status, 401, `${method} ${path} without a token`);
    for (const [role, token] of [
      ['BASIC', basic],
      ['DEV', dev],
    ] as const)
      assert.is((await call(method, path, {}, {}, token)).status, 403, `${method} ${path} as ${role}`);
  }
  assert.is(await catalogTag(), version, 'nothing changed');
});

test('a created episode is answered as a GET answers it, joins its season and is listed, searched and counted at once', async () => {
  const before = (await (await app.get('/api/v1/overview')).json()) as { data_count: Record<string, number> };
  const made = await call('POST', '/api/v1/episodes', newEpisode('Harbour Lights Return'));
  assert.is(made.status, 201, JSON.stringify(made.body));
  const location = made.headers.get('location')!;
  assert.is(location, `/api/v1/episodes/${made.body.uuid}`);
  const read = await app.get(location);
  assert.is(read.status, 200);
  assert.equal(await read.json(), made.body);
  assert.is(read.headers.get('etag'), made.headers.get('etag'));
  assert.ok(typeof made.body.created_at === 'string' && made.body.created_at === made.body.updated_at);
  const seasonNow = (await (await app.get(`/api/v1/seasons/${season.uuid}`)).json()) as Json;
  assert.ok((seasonNow.episodes as string[]).includes(location));
  assert.is(made.body.episode_num, (season.episodes as string[]).length + 1);
  assert.is(seasonNow.duration_total, (season.duration_total as number) + 1_200_000);
  const found = (await (await app.get('/api/v1/episodes?q=harbour+lights+return')).json()) as Json[];
  assert.equal(
    found.map((e) => e.uuid),
    [made.body.uuid],
  );
  const after = (await (await app.get('/api/v1/overview')).json()) as { data_count: Record<string, number> };
  assert.is(after.data_count.episodes, before.data_count.episodes! + 1);
  const graphql = await app.get(
    `/api/graphql?query=${encodeURIComponent(`{ episode(uuid: "${made.body.uuid}") { title } }`)}`,
  );
  assert.equal(((await graphql.json()) as { data: unknown }).data, { episode: { title: 'Harbour Lights Return' } });
});

test("a POST naming the server's fields is a 400 naming them; every other problem is named at once", async () => {
  const served = await call('POST', '/api/v1/locations', {
    name: 'X',
    uuid: '7c2b3a52-9a39-4c1e-9d25-2f7f0c4b1e11',
    created_at: '2020-01-01T00:00:00.000',
  });
  assert.is(served.status, 400);
  assert.match(String(served.body.message), /\/uuid, \/created_at: set by the server/);
  const wrong = await call('POST', '/api/v1/episodes', { title: 7, duration: -5, colour: 'red', season: season.href });
  assert.is(wrong.status, 400);
  for (const part of [/\/title: must be string/, /\/duration: must be >= 0/, /unknown field 'colour'/])
    assert.match(String(wrong.body.message), part);
});

test('a link to a record that does not exist is a 409; deleting a record others link to is a 409 naming them', async () => {
  const dangling = await call('POST', '/api/v1/episodes', {
    ...newEpisode('Nowhere'),
    season: '/api/v1/seasons/0b9d3c0e-1c1e-4a5b-9c1d-2e3f4a5b6c7d',
  });
  assert.is(dangling.status, 409);
  assert.match(String(dangling.body.message), /points to no existing seasons record/);
  const used = soundtracks[0]!;
  const refused = await call('DELETE', `/api/v1/soundtracks/${used.uuid}`);
  assert.is(refused.status, 409);
  assert.match(String(refused.body.message), new RegExp(`season '${season.uuid}' links to it in soundtracks`));
  assert.is((await app.get(`/api/v1/soundtracks/${used.uuid}`)).status, 200);
});

test("a write that would break a two-sided link or a season's numbering is a 409 naming the records", async () => {
  const [actor] = await dataFile('actors.json');
  const taken = await call('POST', '/api/v1/characters', { first_name: 'Second', actor: actor!.href });
  assert.is(taken.status, 409, JSON.stringify(taken.body));
  assert.match(String(taken.body.message), new RegExp(String(actor!.uuid)));
  const clash = await call('POST', '/api/v1/episodes', { ...newEpisode('Numbered Twice'), episode_num: 1 });
  assert.is(clash.status, 409, JSON.stringify(clash.body));
  assert.match(String(clash.body.message), new RegExp(String(season.uuid)));
});

test('deleting an episode takes it out of its season, mends the chain and renumbers the rest', async () => {
  const [first, second, third] = (season.episodes as string[]).map((href) => href.split('/').pop()!);
  const gone = await call('DELETE', `/api/v1/episodes/${second}`);
  assert.is(gone.status, 204);
  assert.is((await app.get(`/api/v1/episodes/${second}`)).status, 404);
  const one = (await (await app.get(`/api/v1/episodes/${first}`)).json()) as Json;
  const three = (await (await app.get(`/api/v1/episodes/${third}`)).json()) as Json;
  assert.is(one.next_episode, `/api/v1/episodes/${third}`);
  assert.is(three.prev_episode, `/api/v1/episodes/${first}`);
  assert.is(three.episode_num, 2);
  const seasonNow = (await (await app.get(`/api/v1/seasons/${season.uuid}`)).json()) as Json;
  assert.not.ok((seasonNow.episodes as string[]).includes(`/api/v1/episodes/${second}`));
  assert.is((await app.get(`/api/v1/episodes/${second}/translations`)).status, 404);
});

test("HawAPI's Go SDK patch (the whole record read back, merged) is a 200; changing a server field is a 400", async () => {
  const uuid = (await dataFile('episodes.json'))[5]!.uuid as string;
  const current = (await (await app.get(`/api/v1/episodes/${uuid}`)).json()) as Json;
  const patched = await call('PATCH', `/api/v1/episodes/${uuid}`, { ...current, title: 'Renamed by the SDK' });
  assert.is(patched.status, 200, JSON.stringify(patched.body));
  assert.is(patched.body.title, 'Renamed by the SDK');
  assert.ok(String(patched.body.updated_at) > String(current.updated_at));
  assert.is(patched.body.created_at, current.created_at);
  const moved = await call('PATCH', `/api/v1/episodes/${uuid}`, { uuid: '7c2b3a52-9a39-4c1e-9d25-2f7f0c4b1e11' });
  assert.is(moved.status, 400);
  assert.match(String(moved.body.message), /\/uuid: is the server's and cannot change/);
  const empty = await call('PATCH', `/api/v1/episodes/${uuid}`, {});
  assert.is(empty.status, 400);
  const list = await call('PATCH', `/api/v1/episodes/${uuid}`, [1]);
  assert.is(list.status, 400);
});

test('a merge patch removes with null, replaces lists whole, and writes a new translation in its language', async () => {
  const uuid = (await dataFile('episodes.json'))[6]!.uuid as string;
  const patched = await call(
    'PATCH',
    `/api/v1/episodes/${uuid}`,
    { images: null, sources: ['https://example.org/a'] },
    { 'Content-Type': 'application/merge-patch+json' },
  );
  assert.is(patched.status, 200, JSON.stringify(patched.body));
  assert.not.ok('images' in patched.body);
  assert.equal(patched.body.sources, ['https://example.org/a']);
  const german = await call('POST', '/api/v1/overview', {});
  assert.is(german.status, 409);
  const translated = await call('PATCH', `/api/v1/episodes/${uuid}`, { language: 'pt-BR', title: 'Título novo' });
  assert.is(translated.status, 200);
  assert.is(translated.body.language, 'pt-BR');
  assert.is(
    ((await (await app.get(`/api/v1/episodes/${uuid}/translations/pt-BR`)).json()) as Json).title,
    'Título novo',
  );
});

test('If-Match: two PATCHes of one record with the same tag give exactly one 200 and one 412', async () => {
  const uuid = (await dataFile('actors.json'))[2]!.uuid as string;
  const etag = (await app.get(`/api/v1/actors/${uuid}`)).headers.get('etag')!;
  const answers = await Promise.all(
    ['Chilean', 'Peruvian'].map((nationality) =>
      call('PATCH', `/api/v1/actors/${uuid}`, { nationality }, { 'If-Match': etag }),
    ),
  );
  assert.equal(answers.map((a) => a.status).sort(), [200, 412]);
  assert.match(String(answers.find((a) => a.status === 412)!.body.message), /If-Match/);
  // A write to another record leaves this record's tag as it is.
  const fresh = (await app.get(`/api/v1/actors/${uuid}`)).headers.get('etag')!;
  await call('PATCH', `/api/v1/locations/${(await dataFile('locations.json'))[0]!.uuid}`, {
    thumbnail: 'https://example.org/l.png',
  });
  assert.is(
    (await call('PATCH', `/api/v1/actors/${uuid}`, { nationality: 'Uruguayan' }, { 'If-Match': fresh })).status,
    200,
  );
});

test('translations and socials: create, change, delete, each refused where HawAPI refuses', async () => {
  const location = (await dataFile('locations.json'))[1]!.uuid as string;
  const exists = await call('POST', `/api/v1/locations/${location}/translations`, { language: 'pt-BR', name: 'Outro' });
  assert.is(exists.status, 409);
  const removed = await call('DELETE', `/api/v1/locations/${location}/translations/pt-BR`);
  assert.is(removed.status, 204);
  const added = await call('POST', `/api/v1/locations/${location}/translations`, { language: 'pt-BR', name: 'Cais' });
  assert.is(added.status, 201, JSON.stringify(added.body));
  assert.is(added.headers.get('location'), `/api/v1/locations/${location}/translations/pt-BR`);
  assert.is(
    (await call('PATCH', `/api/v1/locations/${location}/translations/pt-br`, { name: 'Cais Velho' })).body.name,
    'Cais Velho',
  );
  assert.is((await call('DELETE', `/api/v1/locations/${location}/translations/en-US`)).status, 409);
  const actor = (await dataFile('actors.json'))[0]!.uuid as string;
  const social = await call('POST', `/api/v1/actors/${actor}/socials`, {
    social: 'Pixelfed',
    handle: '@livia',
    url: 'https://example.social/@livia',
  });
  assert.is(social.status, 201, JSON.stringify(social.body));
  assert.is(
    (await call('POST', `/api/v1/actors/${actor}/socials`, { social: 'pixelfed', url: 'https://example.social/@x' }))
      .status,
    409,
  );
  assert.is(
    (await call('PATCH', `/api/v1/actors/${actor}/socials/pixelfed`, { handle: '@livia.c' })).body.handle,
    '@livia.c',
  );
  assert.is((await call('DELETE', `/api/v1/actors/${actor}/socials/Pixelfed`)).status, 204);
  assert.is((await app.get(`/api/v1/actors/${actor}/socials/pixelfed`)).status, 404);
});

test('hostile bodies are 4xx and change nothing', async () => {
  const version = await catalogTag();
  const uuid = (await dataFile('games.json'))[0]!.uuid as string;
  const polluted = await call(
    'PATCH',
    `/api/v1/games/${uuid}`,
    '{"__proto__": {"admin": true}, "constructor": {"prototype": {"x": 1}}}',
  );
  assert.is(polluted.status, 400);
  assert.match(String(polluted.body.message), /'__proto__'/);
  assert.is(({} as Json).admin, undefined);
  const deep = await call('POST', '/api/v1/games', `{"tags": ${'['.repeat(500)}${']'.repeat(500)}}`);
  assert.is(deep.status, 400);
  const huge = await call('POST', '/api/v1/games', { name: 'x'.repeat(70 * 1024) });
  assert.is(huge.status, 413);
  const typed = await call('POST', '/api/v1/games', { name: ['list'], playtime: 'long' });
  assert.is(typed.status, 400);
  const notJson = await call('POST', '/api/v1/games', '{"name": ');
  assert.is(notJson.status, 400);
  assert.is(await catalogTag(), version, 'nothing changed');
});

test('every acknowledged write is in the overlay beside the accounts, and a restart serves it', async () => {
  const made = await call('POST', '/api/v1/soundtracks', { name: 'Kept Across Restarts' });
  assert.is(made.status, 201);
  const overlay = await readOverlayFile<{ request: string; account: { username: string } }>(
    join(dirname(app.file), 'catalog-overlay.json'),
  );
  assert.equal(overlay.writes.at(-1)!.request, 'POST /api/v1/soundtracks');
  assert.is(overlay.writes.at(-1)!.account.username, 'user_maint');
  const again: TestServer = await startApp({}, dir);
  try {
    const read = await again.get(`/api/v1/soundtracks/${made.body.uuid}`);
    assert.is(read.status, 200);
    assert.equal(await read.json(), made.body);
  } finally {
    await again.close();
  }
});

test('CATALOG_WRITES=off answers the write routes 405 with Allow', async () => {
  const off = await startApp({ CATALOG_WRITES: 'off' });
  try {
    const response = await fetch(`${off.url}/api/v1/actors`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    assert.is(response.status, 405);
    assert.is(response.headers.get('allow'), 'HEAD, GET');
  } finally {
    await off.close();
  }
});

test.run();
