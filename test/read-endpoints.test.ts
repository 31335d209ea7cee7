import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dataFile, json, startApp } from './helpers/http.ts';

type Row = Record<string, unknown>;

const server = await startApp();
const FAMILIES = ['actors', 'characters', 'episodes', 'seasons', 'locations', 'soundtracks', 'games'];
const TRANSLATED: Record<string, string> = {
  episodes: 'episode_uuid',
  seasons: 'season_uuid',
  locations: 'location_uuid',
  games: 'game_uuid',
};

/** A data record as the API serves it: nulls dropped, its pictures' paths under the server's address. */
function withoutNulls(record: Row): Row {
  const served = (value: unknown): unknown =>
    typeof value === 'string' && value.startsWith('/images/')
      ? server.url + value
      : Array.isArray(value)
        ? value.map(served)
        : value;
  return Object.fromEntries(
    Object.entries(record)
      .filter(([, v]) => v !== null)
      .map(([name, v]) => [name, name === 'thumbnail' || name === 'images' ? served(v) : v]),
  );
}

async function translationRows(name: string): Promise<Row[]> {
  return dataFile(`translations/${name}_translations.json`);
}

test('/api describes the service with string fields only', async () => {
  const response = await server.get('/api');
  assert.is(response.headers.get('content-type'), 'application/json');
  const info = await json<Row>(response);
  const keys = [
    'title',
    'description',
    'version',
    'url',
    'docs',
    'github',
    'github_home',
    'api_url',
    'api_version',
    'api_path',
    'api_base_url',
    'license',
    'license_url',
    'data_version',
  ];
  assert.equal(Object.keys(info).sort(), [...keys].sort());
  for (const key of keys) assert.type(info[key], 'string', key);
  assert.is(info.api_version, 'v1');
  assert.is(info.api_path, '/api');
  assert.is(info.api_base_url, '/api/v1');
  assert.is(info.url, server.url);
  assert.is(info.api_url, `${server.url}/api`);
});

test('/api/ping answers Pong as text/plain', async () => {
  const response = await server.get('/api/ping');
  assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
  assert.is(await response.text(), 'Pong');
});

test('/api/v1/endpoints lists the route patterns', async () => {
  const routes = await json<{ method: string; path: string }[]>(await server.get('/api/v1/endpoints'));
  const paths = routes.map((r) => r.path);
  for (const name of FAMILIES) {
    for (const path of [`/api/v1/${name}`, `/api/v1/${name}/random`, `/api/v1/${name}/{uuid}`])
      assert.ok(paths.includes(path), path);
  }
  for (const name of Object.keys(TRANSLATED))
    assert.ok(paths.includes(`/api/v1/${name}/{uuid}/translations/{language}`));
  assert.ok(paths.includes('/api/v1/actors/{uuid}/socials/{social}'));
  assert.ok(paths.includes('/api/v1/overview/translations/random'));
});

test('every family: first page in file order, each record by uuid, random is one of them', async () => {
  for (const name of FAMILIES) {
    const records = await dataFile(`${name}.json`);
    const list = await json<Row[]>(await server.get(`/api/v1/${name}`));
    assert.equal(
      list.map((r) => r.uuid),
      records.slice(0, 10).map((r) => r.uuid),
      name,
    );
    for (const record of records) {
      const served = await json<Row>(await server.get(`/api/v1/${name}/${record.uuid}`));
      const { language, languages, ...rest } = served;
      if (TRANSLATED[name]) {
        assert.is(language, 'en-US');
        const own = (await translationRows(name)).filter((t) => t[TRANSLATED[name]!] === record.uuid);
        assert.equal(
          languages,
          ['en-US', 'pt-BR', 'es-ES'].filter((l) => own.some((t) => t.language === l)),
        );
        const { [TRANSLATED[name]!]: _parent, language: _l, ...fields } = own.find((t) => t.language === 'en-US')!;
        assert.equal(rest, { ...withoutNulls(record), ...withoutNulls(fields) }, `${name} ${record.uuid}`);
      } else {
        assert.equal(served, withoutNulls(record), `${name} ${record.uuid}`);
      }
    }
    const random = await server.get(`/api/v1/${name}/random`);
    assert.is(random.headers.get('cache-control'), 'no-store');
    assert.is(random.headers.get('etag'), null);
    const picked = await json<Row>(random);
    assert.ok(
      records.some((r) => r.uuid === picked.uuid),
      `${name} random`,
    );
  }
});

test('uuids are matched case-insensitively; malformed is 400, unknown is 404', async () => {
  const [actor] = await dataFile('actors.json');
  const upper = await server.get(`/api/v1/actors/${String(actor!.uuid).toUpperCase()}`);
  assert.is(upper.status, 200);
  assert.is((await json<Row>(upper)).uuid, actor!.uuid);
  const bad = await server.get('/api/v1/actors/not-a-uuid');
  assert.is(bad.status, 400);
  assert.is((await json<Row>(bad)).message, "'not-a-uuid' is not a valid uuid");
  const missing = await server.get('/api/v1/characters/00000000-0000-4000-8000-000000000000');
  assert.is(missing.status, 404);
  assert.is((await json<Row>(missing)).message, "Character '00000000-0000-4000-8000-000000000000' not found");
});

test('translations of every translated record: all, one, random, and a missing one', async () => {
  for (const [name, parentKey] of Object.entries(TRANSLATED)) {
    const rows = await translationRows(name);
    const records = await dataFile(`${name}.json`);
    for (const record of records) {
      const own = rows
        .filter((t) => t[parentKey] === record.uuid)
        .map(({ [parentKey]: _p, ...rest }) => withoutNulls(rest));
      const all = await json<Row[]>(await server.get(`/api/v1/${name}/${record.uuid}/translations`));
      assert.equal(all, own, `${name} ${record.uuid}`);
      for (const row of own) {
        const one = await server.get(
          `/api/v1/${name}/${record.uuid}/translations/${String(row.language).toLowerCase()}`,
        );
        assert.is(one.headers.get('content-language'), row.language);
        assert.equal(await json(one), row);
      }
      const random = await json<Row>(await server.get(`/api/v1/${name}/${record.uuid}/translations/random`));
      assert.ok(own.some((row) => row.language === random.language));
    }
  }
  const partial = (await translationRows('games')).filter((t) => t.language === 'es-ES').map((t) => t.game_uuid);
  const untranslated = (await dataFile('games.json')).find((g) => !partial.includes(g.uuid))!;
  const missing = await server.get(`/api/v1/games/${untranslated.uuid}/translations/es-ES`);
  assert.is(missing.status, 404);
  assert.is(
    (await json<Row>(missing)).message,
    `Game '${untranslated.uuid}' has no translation in 'es-ES'; available: en-US, pt-BR`,
  );
  // A language the catalog does not have is a 404 too, as HawAPI answers and its clients expect.
  const unknown = await server.get(`/api/v1/games/${untranslated.uuid}/translations/fr-FR`);
  assert.is(unknown.status, 404);
  assert.is(
    (await json<Row>(unknown)).message,
    `Game '${untranslated.uuid}' has no translation in 'fr-FR'; available: en-US, pt-BR`,
  );
  const overview = await server.get('/api/v1/overview/translations/xx');
  assert.is(overview.status, 404);
  assert.match(
    String((await json<Row>(overview)).message),
    /has no translation in 'xx'; available: en-US, pt-BR, es-ES$/,
  );
});

test("socials are the actor's own: all, by network (case-insensitive), random, and missing", async () => {
  const actors = await dataFile('actors.json');
  for (const actor of actors) {
    const socials = (actor.socials as Row[] | undefined) ?? [];
    const all = await json<Row[]>(await server.get(`/api/v1/actors/${actor.uuid}/socials`));
    assert.equal(all, socials);
    for (const social of socials) {
      const one = await server.get(`/api/v1/actors/${actor.uuid}/socials/${String(social.social).toUpperCase()}`);
      assert.equal(await json(one), social);
    }
    const random = await server.get(`/api/v1/actors/${actor.uuid}/socials/random`);
    if (socials.length === 0) {
      assert.is(random.status, 404);
      assert.is((await json<Row>(random)).message, `Actor '${actor.uuid}' has no socials`);
    } else {
      const picked = await json<Row>(random);
      assert.ok(socials.some((s) => s.url === picked.url));
    }
  }
  const [first] = actors;
  const none = await server.get(`/api/v1/actors/${first!.uuid}/socials/friendster`);
  assert.is(none.status, 404);
  assert.is((await json<Row>(none)).message, `Actor '${first!.uuid}' has no social 'friendster'`);
});

test('overview: record with data_count numbers, translations, and its uuid route', async () => {
  const [overview] = await dataFile('overview.json');
  const served = await json<Row>(await server.get('/api/v1/overview'));
  const counts: Record<string, number> = {};
  for (const name of FAMILIES) counts[name] = (await dataFile(`${name}.json`)).length;
  assert.equal(served.data_count, counts);
  assert.is(served.uuid, overview!.uuid);
  assert.equal(served.languages, overview!.languages);
  const pt = await json<Row>(await server.get('/api/v1/overview?language=pt-br'));
  const rows = await translationRows('overview');
  assert.is(pt.title, rows.find((t) => t.language === 'pt-BR')!.title);
  assert.is(pt.language, 'pt-BR');
  const all = await json<Row[]>(await server.get('/api/v1/overview/translations'));
  assert.equal(
    all.map((t) => t.language),
    rows.map((t) => t.language),
  );
  const es = await json<Row>(await server.get('/api/v1/overview/translations/es-ES'));
  assert.is(es.title, rows.find((t) => t.language === 'es-ES')!.title);
  assert.is((await server.get(`/api/v1/overview/${overview!.uuid}`)).status, 200);
  assert.is((await server.get('/api/v1/overview/00000000-0000-4000-8000-000000000000')).status, 404);
});

test('null and absent fields are omitted, empty lists stay []', async () => {
  const actors = await dataFile('actors.json');
  const withEmpty = actors.find((a) => Array.isArray(a.nicknames) && a.nicknames.length === 0)!;
  const served = await json<Row>(await server.get(`/api/v1/actors/${withEmpty.uuid}`));
  assert.equal(served.nicknames, []);
  assert.not.ok(Object.values(served).includes(null));
  assert.not.ok('death_date' in served && withEmpty.death_date == null);
});

test.after(() => server.close());
test.run();
