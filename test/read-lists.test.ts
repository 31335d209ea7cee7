import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dataFile, json, startApp } from './helpers/http.ts';
import { FIXTURES } from './helpers/fixtures.ts';

type Row = Record<string, unknown>;

const server = await startApp({ MAX_PAGE_SIZE: '50' });
const actors = await dataFile('actors.json');
const soundtracks = await dataFile('soundtracks.json');
const episodes = await dataFile('episodes.json');
const games = await dataFile('games.json');
const locationRows = await dataFile('translations/locations_translations.json');

/** Uuids of one list answer (every test family fits one page of 50). */
async function uuids(path: string): Promise<unknown[]> {
  const response = await server.get(path);
  assert.is(response.status, 200, `${path}: ${response.status}`);
  return (await json<Row[]>(response)).map((r) => r.uuid);
}

const ids = (rows: Row[]) => rows.map((r) => r.uuid);

async function errorMessage(path: string, status = 400): Promise<string> {
  const response = await server.get(path);
  assert.is(response.status, status, path);
  return String((await json<Row>(response)).message);
}

test('paging headers and Link on a middle page keep the other parameters', async () => {
  const response = await server.get('/api/v1/soundtracks?page=2&size=5&artist=*a');
  const matching = soundtracks.filter((s) => String(s.artist).toLowerCase().includes('a'));
  assert.is(response.headers.get('x-pagination-page-index'), '2');
  assert.is(response.headers.get('x-pagination-page-size'), '5');
  assert.is(response.headers.get('x-pagination-page-total'), String(Math.ceil(matching.length / 5)));
  assert.is(response.headers.get('x-pagination-item-total'), String(matching.length));
  const links: Record<string, URL> = Object.fromEntries(
    (response.headers.get('link') ?? '').split(', ').map((part) => {
      const [, target, rel] = /^<([^>]+)>; rel="(\w+)"$/.exec(part)!;
      return [rel, new URL(target!, server.url)];
    }),
  );
  assert.equal(Object.keys(links).sort(), ['first', 'last', 'next', 'prev']);
  for (const link of Object.values(links)) {
    assert.is(link.searchParams.get('artist'), '*a');
    assert.is(link.searchParams.get('size'), '5');
  }
  assert.is(links.prev!.searchParams.get('page'), '1');
  assert.is(links.next!.searchParams.get('page'), '3');
  assert.is(links.last!.searchParams.get('page'), String(Math.ceil(matching.length / 5)));
  assert.equal(await json<Row[]>(response).then(ids), ids(matching.slice(5, 10)));
});

test('last page, page past the end, clamped size', async () => {
  const last = await server.get('/api/v1/soundtracks?page=3&size=10');
  assert.is(last.headers.get('x-pagination-page-size'), String(soundtracks.length - 20));
  assert.not.match(last.headers.get('link') ?? '', /rel="next"/);
  const past = await server.get('/api/v1/soundtracks?page=9&size=10');
  assert.is(past.status, 200);
  assert.equal(await json(past), []);
  assert.is(past.headers.get('x-pagination-page-size'), '0');
  assert.is(past.headers.get('x-pagination-item-total'), String(soundtracks.length));
  const clamped = await server.get('/api/v1/soundtracks?size=5000');
  assert.is(clamped.status, 200);
  assert.is((await json<Row[]>(clamped)).length, soundtracks.length);
  assert.match(clamped.headers.get('link') ?? '', /size=50/);
});

test('page and size must be positive integers', async () => {
  for (const bad of ['0', '-1', '1.5', 'abc', '', '1e3']) {
    assert.is(
      await errorMessage(`/api/v1/actors?page=${bad}`),
      `Parameter 'page' must be a positive integer, got '${bad}'`,
    );
    assert.is(
      await errorMessage(`/api/v1/actors?size=${bad}`),
      `Parameter 'size' must be a positive integer, got '${bad}'`,
    );
  }
});

test('an empty family answers [] with its headers; random there is 404', async () => {
  const empty = await startApp({ DATA_DIR: join(FIXTURES, 'base') });
  try {
    const response = await empty.get('/api/v1/games');
    assert.is(response.status, 200);
    assert.equal(await json(response), []);
    assert.is(response.headers.get('x-pagination-item-total'), '0');
    assert.is(response.headers.get('x-pagination-page-total'), '0');
    assert.match(response.headers.get('link') ?? '', /[?&]page=1(&[^>]*)?>; rel="first"/);
    const random = await empty.get('/api/v1/games/random');
    assert.is(random.status, 404);
    assert.is((await json<Row>(random)).message, 'There are no games to pick from');
  } finally {
    await empty.close();
  }
});

test('sort both ways, by suffix or order parameter, missing values last, ties on uuid', async () => {
  const byBirth = (direction: 1 | -1) =>
    [...actors].sort((a, b) => {
      if (a.birth_date == null || b.birth_date == null)
        return a.birth_date == null ? (b.birth_date == null ? 0 : 1) : -1;
      const c = String(a.birth_date).localeCompare(String(b.birth_date)) * direction;
      return c !== 0 ? c : String(a.uuid).localeCompare(String(b.uuid));
    });
  assert.equal(await uuids('/api/v1/actors?sort=birth_date&size=50'), ids(byBirth(1)));
  assert.equal(await uuids('/api/v1/actors?sort=birth_date,DESC&size=50'), ids(byBirth(-1)));
  assert.equal(await uuids('/api/v1/actors?sort=birth_date&order=desc&size=50'), ids(byBirth(-1)));
  const byDuration = [...soundtracks].sort(
    (a, b) => Number(b.duration) - Number(a.duration) || String(a.uuid).localeCompare(String(b.uuid)),
  );
  assert.equal(await uuids('/api/v1/soundtracks?sort=duration,desc&size=50'), ids(byDuration));
});

test('translated fields sort in the selected language', async () => {
  const names = (language: string) => {
    const collator = new Intl.Collator(language);
    return locationRows
      .filter((t) => t.language === language)
      .sort((a, b) => collator.compare(String(a.name), String(b.name)))
      .map((t) => t.location_uuid);
  };
  assert.equal(await uuids('/api/v1/locations?sort=name&size=50'), names('en-US'));
  assert.equal(await uuids('/api/v1/locations?sort=name&size=50&language=pt-BR'), names('pt-BR'));
});

test('sort errors name the sortable fields', async () => {
  const message = await errorMessage('/api/v1/actors?sort=height');
  assert.match(message, /^Cannot sort actors by 'height'; sortable: .*first_name.*birth_date/);
  assert.match(await errorMessage('/api/v1/actors?sort=nicknames'), /^Cannot sort actors by 'nicknames'/);
  assert.match(await errorMessage('/api/v1/actors?sort=first_name,up'), /asc or desc \(any case\), got 'up'/);
  assert.is(await errorMessage('/api/v1/actors?order=asc'), "Parameter 'order' ('asc') needs a 'sort' field");
});

test('a bad sort direction is a 400 naming it and asc, desc, whatever else the query holds', async () => {
  const named = (from: string, value: string) =>
    `Sort direction in '${from}' must be asc or desc (any case), got '${value}'`;
  for (const query of [
    'order=sideways',
    'sort=title&order=sideways',
    'sort=nope&order=sideways',
    'order=sideways&language=pt-BR',
  ]) {
    assert.is(await errorMessage(`/api/v1/episodes?${query}`), named('order', 'sideways'), query);
  }
  for (const query of ['sort=title,sideways', 'sort=nope,sideways', 'sort=title,sideways&order=asc']) {
    assert.is(await errorMessage(`/api/v1/episodes?${query}`), named('sort', 'sideways'), query);
  }
  assert.is(await errorMessage('/api/v1/episodes?order='), named('order', ''));
  assert.is(await errorMessage('/api/v1/episodes?sort=title,'), named('sort', ''));
  assert.is(await errorMessage('/api/v1/actors?order=%20desc'), named('order', ' desc'));
});

test('string filters: equals, literal, not, contains, not contains, one of, none of', async () => {
  const brazilian = actors.filter((a) => a.nationality === 'Brazilian');
  assert.equal(await uuids('/api/v1/actors?nationality=Brazilian&size=50'), ids(brazilian));
  assert.equal(
    await uuids('/api/v1/actors?nationality=!Brazilian&size=50'),
    ids(actors.filter((a) => a.nationality !== 'Brazilian')),
  );
  assert.equal(await uuids('/api/v1/actors?nationality=*BRAZ&size=50'), ids(brazilian));
  assert.equal(
    await uuids('/api/v1/actors?nationality=!*braz&size=50'),
    ids(actors.filter((a) => a.nationality !== 'Brazilian')),
  );
  const two = ['Brazilian', 'Canadian'];
  assert.equal(
    await uuids(`/api/v1/actors?nationality=:${two}&size=50`),
    ids(actors.filter((a) => two.includes(String(a.nationality)))),
  );
  assert.equal(
    await uuids(`/api/v1/actors?nationality=!:${two}&size=50`),
    ids(actors.filter((a) => !two.includes(String(a.nationality)))),
  );
  // `=` takes the rest literally: no actor is called "!Brazilian".
  assert.equal(await uuids('/api/v1/actors?nationality==!Brazilian'), []);
});

test('list filters: contains all, contains none, a plain comma list', async () => {
  const has = (g: Row, tags: string[]) => tags.every((t) => (g.platforms as string[]).includes(t));
  assert.equal(await uuids('/api/v1/games?platforms=PC'), ids(games.filter((g) => has(g, ['PC']))));
  assert.equal(await uuids('/api/v1/games?platforms=PC,Console'), ids(games.filter((g) => has(g, ['PC', 'Console']))));
  assert.equal(await uuids('/api/v1/games?platforms=:PC,iOS'), ids(games.filter((g) => has(g, ['PC', 'iOS']))));
  assert.equal(
    await uuids('/api/v1/games?platforms=!:iOS'),
    ids(games.filter((g) => !(g.platforms as string[]).includes('iOS'))),
  );
  assert.equal(
    await uuids('/api/v1/games?tags=*escape'),
    ids(games.filter((g) => (g.tags as string[]).some((t) => t.toLowerCase().includes('escape')))),
  );
});

test('number filters: comparisons and between', async () => {
  const d = (s: Row) => Number(s.duration);
  const cases: [string, (s: Row) => boolean][] = [
    ['>200000', (s) => d(s) > 200000],
    ['>=200000', (s) => d(s) >= 200000],
    ['<200000', (s) => d(s) < 200000],
    ['<=192000', (s) => d(s) <= 192000],
    ['150000::250000', (s) => d(s) >= 150000 && d(s) <= 250000],
    [':94000,192000', (s) => [94000, 192000].includes(d(s))],
    ['!94000', (s) => d(s) !== 94000],
  ];
  for (const [value, keep] of cases) {
    assert.equal(
      await uuids(`/api/v1/soundtracks?duration=${encodeURIComponent(value)}&size=50`),
      ids(soundtracks.filter(keep)),
      value,
    );
  }
});

test('date filters: comparisons and between', async () => {
  const r = (s: Row) => String(s.release_date);
  assert.equal(
    await uuids('/api/v1/soundtracks?release_date=>2022-01-01&size=50'),
    ids(soundtracks.filter((s) => r(s) > '2022-01-01')),
  );
  assert.equal(
    await uuids('/api/v1/soundtracks?release_date=2021-01-01::2022-12-31&size=50'),
    ids(soundtracks.filter((s) => r(s) >= '2021-01-01' && r(s) <= '2022-12-31')),
  );
});

test('relation filters accept the href or the bare uuid; contains finds the actor of a character', async () => {
  const season = String(episodes[0]!.season);
  const uuid = season.split('/').pop()!;
  const expected = ids(episodes.filter((e) => e.season === season));
  assert.equal(await uuids(`/api/v1/episodes?season=${encodeURIComponent(season)}&size=50`), expected);
  assert.equal(await uuids(`/api/v1/episodes?season=${uuid}&size=50`), expected);
  const character = String(actors[3]!.character).split('/').pop()!;
  assert.equal(await uuids(`/api/v1/actors?character=*${character}`), [actors[3]!.uuid]);
});

test('translated filters match in the selected language; filters combine with AND', async () => {
  const pt = locationRows.find((t) => t.language === 'pt-BR')!;
  assert.equal(await uuids(`/api/v1/locations?name=${encodeURIComponent(String(pt.name))}&language=pt-BR`), [
    pt.location_uuid,
  ]);
  assert.equal(await uuids(`/api/v1/locations?name=${encodeURIComponent(String(pt.name))}`), []);
  const both = soundtracks.filter((s) => s.artist === 'Marta Velloso' && Number(s.duration) > 150000);
  assert.equal(await uuids('/api/v1/soundtracks?artist=Marta%20Velloso&duration=%3E150000&size=50'), ids(both));
});

test('filter errors: unknown field, bad integer, bad date, operator that does not fit', async () => {
  const unknown = await errorMessage('/api/v1/actors?frist_name=Ana');
  assert.match(unknown, /^Unknown filter 'frist_name' for actors; filterable: .*first_name/);
  assert.is(await errorMessage('/api/v1/soundtracks?duration=long'), "'long' is not an integer (filter 'duration')");
  assert.is(
    await errorMessage('/api/v1/soundtracks?release_date=2021-13-01'),
    "'2021-13-01' is not a date (YYYY-MM-DD) (filter 'release_date')",
  );
  assert.is(
    await errorMessage('/api/v1/actors?first_name=%3EA'),
    "Operator '>' does not apply to string field 'first_name'",
  );
  assert.is(
    await errorMessage('/api/v1/games?platforms=%3EPC'),
    "Operator '>' does not apply to the list field 'platforms'",
  );
  assert.is(
    await errorMessage('/api/v1/soundtracks?duration=*9'),
    "Operator '*' does not apply to integer field 'duration'",
  );
  assert.is(
    await errorMessage('/api/v1/soundtracks?duration=1::'),
    "Filter 'duration' between needs exactly 'a::b', got '1::'",
  );
  assert.is(await errorMessage('/api/v1/actors?first_name='), "Filter 'first_name' needs a value");
});

test('language: parameter, Accept-Language with q-values, fallback, and errors', async () => {
  const esRows = (await dataFile('translations/episodes_translations.json')).filter((t) => t.language === 'es-ES');
  const list = await server.get('/api/v1/episodes?language=ES-es&size=50');
  assert.is(list.headers.get('content-language'), 'es-ES');
  assert.match(list.headers.get('vary') ?? '', /Accept-Language/);
  const served = await json<Row[]>(list);
  assert.is(served.length, episodes.length, 'records without es-ES are kept');
  for (const episode of served) {
    const own = esRows.find((t) => t.episode_uuid === episode.uuid);
    assert.is(episode.language, own ? 'es-ES' : 'en-US');
    if (own) assert.is(episode.title, own.title);
  }
  const byHeader = await server.get('/api/v1/episodes?size=1', {
    'Accept-Language': 'fr;q=1, pt-BR;q=0.8, en-US;q=0.5',
  });
  assert.is(byHeader.headers.get('content-language'), 'pt-BR');
  assert.is((await json<Row[]>(byHeader))[0]!.language, 'pt-BR');
  const fallback = await server.get('/api/v1/episodes?size=1', { 'Accept-Language': 'de-DE' });
  assert.is(fallback.headers.get('content-language'), 'en-US');
  assert.is(
    await errorMessage('/api/v1/episodes?language=xx-YY'),
    "Unknown language 'xx-YY'; available: en-US, pt-BR, es-ES",
  );
  assert.is(
    await errorMessage('/api/v1/overview?language=xx'),
    "Unknown language 'xx'; available: en-US, pt-BR, es-ES",
  );
  assert.is(
    await errorMessage(`/api/v1/seasons/${episodes[0]!.season!.toString().split('/').pop()}/translations?language=xx`),
    "Unknown language 'xx'; available: en-US, pt-BR, es-ES",
  );
});

test('what official clients always send is accepted: language on untranslated families, size on records', async () => {
  assert.is((await server.get('/api/v1/actors?language=xx-YY&size=5')).status, 200);
  assert.is((await server.get(`/api/v1/actors/${actors[0]!.uuid}?size=5&language=pt-BR&whatever=1`)).status, 200);
  assert.is((await server.get(`/api/v1/episodes/${episodes[0]!.uuid}?size=5`)).status, 200);
});

test.after(() => server.close());
test.run();
