import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { words } from '../src/catalog/search.ts';
import { dataFile, json, startApp } from './helpers/http.ts';

type Row = Record<string, unknown>;

const server = await startApp();
const locations = await dataFile('locations.json');
const locationRows = await dataFile('translations/locations_translations.json');
const ids = (rows: Row[]) => rows.map((r) => r.uuid);

async function list(path: string): Promise<Row[]> {
  const response = await server.get(path);
  assert.is(response.status, 200, path);
  return json<Row[]>(response);
}

async function error(path: string): Promise<string> {
  const response = await server.get(path);
  assert.is(response.status, 400, path);
  return String((await json<Row>(response)).message);
}

/** Locations in file order with their text in `language`. */
function located(language: string): { uuid: unknown; name: string; description: string }[] {
  return locations.map((l) => {
    const row = locationRows.find((t) => t.location_uuid === l.uuid && t.language === language)!;
    return { uuid: l.uuid, name: String(row.name), description: String(row.description ?? '') };
  });
}

const has = (text: string, word: string) => words(text).some((w) => w.startsWith(word));

test('words: accents, case and punctuation fall away', () => {
  assert.equal(words('São Brás, 1894 — ÁGUA-viva!'), ['sao', 'bras', '1894', 'agua', 'viva']);
});

test('ranking: name matches before description matches, then file order', async () => {
  const all = located('en-US');
  const inName = all.filter((l) => has(l.name, 'radio'));
  const inDescriptionOnly = all.filter((l) => !has(l.name, 'radio') && has(l.description, 'radio'));
  assert.ok(inName.length > 0 && inDescriptionOnly.length > 0, 'the embedded catalog has both kinds');
  assert.equal(ids(await list('/api/v1/locations?q=radio&size=50')), [
    ...ids(inName as Row[]),
    ...ids(inDescriptionOnly as Row[]),
  ]);
});

test('accent- and case-insensitive, every word must match, each as a prefix', async () => {
  const target = located('en-US').find((l) => /ã|á|é|í|ó|ú|ç/.test(l.name))!;
  const plain = words(target.name).join(' ').toUpperCase();
  assert.ok(ids(await list(`/api/v1/locations?q=${encodeURIComponent(plain)}`)).includes(target.uuid));
  const [first, second] = words(target.name);
  const prefixes = `${first!.slice(0, 3)} ${second!.slice(0, 2)}`;
  const expected = located('en-US').filter((l) => words(prefixes).every((w) => has(`${l.name} ${l.description}`, w)));
  assert.equal(
    ids(await list(`/api/v1/locations?q=${encodeURIComponent(prefixes)}&size=50`)).sort(),
    ids(expected as Row[]).sort(),
  );
  assert.equal(await list('/api/v1/locations?q=radio%20zzzzqqq'), []);
});

test('search runs in the selected language', async () => {
  const pt = located('pt-BR').find((l) => has(l.name, 'farol'))!;
  assert.ok(ids(await list('/api/v1/locations?q=farol&language=pt-BR')).includes(pt.uuid));
  assert.not.ok(ids(await list('/api/v1/locations?q=farol&language=en-US')).includes(pt.uuid));
});

test('search combines with filters, sort and paging', async () => {
  const soundtracks = await dataFile('soundtracks.json');
  const text = (s: Row) => `${s.name} ${s.artist} ${s.album}`;
  const matching = soundtracks.filter((s) => has(text(s), 'marta') && Number(s.duration) > 150000);
  const byDuration = [...matching].sort(
    (a, b) => Number(b.duration) - Number(a.duration) || String(a.uuid).localeCompare(String(b.uuid)),
  );
  const response = await server.get('/api/v1/soundtracks?q=marta&duration=%3E150000&sort=duration,desc&size=3&page=2');
  assert.is(response.headers.get('x-pagination-item-total'), String(matching.length));
  assert.equal(ids(await json<Row[]>(response)), ids(byDuration.slice(3, 6)));
});

test('every relation of every family expands to the related records, in the selected language', async () => {
  const relations: Record<string, string[]> = {
    actors: ['character', 'seasons'],
    characters: ['actor'],
    episodes: ['season', 'next_episode', 'prev_episode'],
    seasons: ['episodes', 'soundtracks', 'next_season', 'prev_season'],
  };
  for (const [family, names] of Object.entries(relations)) {
    for (const relation of names) {
      const plain = await list(`/api/v1/${family}?size=50&language=pt-BR`);
      const expanded = await list(`/api/v1/${family}?size=50&language=pt-BR&expand=${relation}`);
      for (const [i, record] of plain.entries()) {
        const value = record[relation];
        const expected = Array.isArray(value)
          ? await Promise.all(value.map(async (href: string) => json(await server.get(`${href}?language=pt-BR`))))
          : typeof value === 'string'
            ? await json(await server.get(`${value}?language=pt-BR`))
            : undefined;
        assert.equal(expanded[i]![relation], expected, `${family} ${relation}`);
      }
    }
  }
});

test('fields with and without expand; the single-record endpoint too', async () => {
  const [actor] = await list('/api/v1/actors?size=1');
  const picked = await list('/api/v1/actors?size=1&fields=first_name,nicknames');
  assert.equal(picked[0], {
    uuid: actor!.uuid,
    href: actor!.href,
    first_name: actor!.first_name,
    nicknames: actor!.nicknames,
  });
  const shaped = await json<Row>(await server.get(`/api/v1/actors/${actor!.uuid}?expand=character&fields=character`));
  const character = await json<Row>(await server.get(String(actor!.character)));
  assert.equal(shaped, { uuid: actor!.uuid, href: actor!.href, character });
  const episode = await json<Row>(await server.get('/api/v1/episodes/random?fields=title,language&language=es-ES'));
  assert.equal(Object.keys(episode).sort(), ['href', 'language', 'title', 'uuid']);
});

test('shape and search are part of the cache key and the ETag', async () => {
  const [actor] = await list('/api/v1/actors?size=1');
  const tags = new Set<string | null>();
  for (const query of ['', '?fields=first_name', '?expand=character', '?expand=character&fields=character']) {
    tags.add((await server.get(`/api/v1/actors/${actor!.uuid}${query}`)).headers.get('etag'));
  }
  assert.is(tags.size, 4);
  const a = await server.get('/api/v1/locations?q=radio');
  const b = await server.get('/api/v1/locations?q=farol');
  assert.is.not(a.headers.get('etag'), b.headers.get('etag'));
});

test('each bad q, expand and fields is a 400 naming the problem', async () => {
  assert.is(await error('/api/v1/actors?q=%20!!%20'), "Parameter 'q' has no words to search for, got ' !! '");
  assert.is(
    await error('/api/v1/actors?expand=season'),
    "Cannot expand 'season' of actors; expandable: seasons, character",
  );
  assert.is(await error('/api/v1/locations?expand=season'), "Cannot expand 'season' of locations; it has no relations");
  assert.match(
    await error('/api/v1/actors?fields=height'),
    /^Unknown field 'height' for actors; fields: uuid, href, .*first_name/,
  );
  assert.is(
    await error('/api/v1/actors?fields=first_name,,x'),
    "Parameter 'fields' needs comma-separated names, got 'first_name,,x'",
  );
  assert.is(await error('/api/v1/actors?q=a&q=b'), "Parameter 'q' was given 2 times; give it once");
  const [actor] = await list('/api/v1/actors?size=1');
  assert.match(await error(`/api/v1/actors/${actor!.uuid}?expand=nope`), /^Cannot expand 'nope' of actors/);
});

test.after(() => server.close());
test.run();
