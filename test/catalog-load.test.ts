import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkData } from '../src/catalog/check.ts';
import { loadCatalog } from '../src/catalog/load.ts';
import { formatProblem } from '../src/catalog/problems.ts';
import { parseJson } from '../src/lib/json.ts';
import { FIXTURES, problemFixture } from './helpers/fixtures.ts';

const DATA = new URL('../data/', import.meta.url).pathname;

test('the embedded catalog loads with zero problems and the promised content', async () => {
  const result = await loadCatalog(DATA, { defaultLanguage: 'en-US' });
  if (!result.ok) throw new Error(result.problems.map(formatProblem).join('\n'));
  const { catalog } = result;
  assert.equal(catalog.counts(), {
    actors: 20,
    characters: 20,
    episodes: 24,
    seasons: 3,
    locations: 15,
    soundtracks: 24,
    games: 3,
  });
  assert.ok(catalog.languages.includes('en-US') && catalog.languages.includes('pt-BR'));
  for (const name of ['episodes', 'seasons', 'locations', 'games', 'overview'] as const) {
    const store = catalog.store(name);
    for (let p = 0; p < store.size; p++) {
      const languages = store.languagesOf(p);
      assert.ok(
        languages.includes('en-US') && languages.includes('pt-BR'),
        `${name} ${store.records[p]!.uuid}: ${languages}`,
      );
    }
  }
  const episodes = catalog.store('episodes');
  const first = episodes.records.filter((e) => !e.prev_episode);
  assert.is(first.length, 1, 'one episode starts the chain');
  let walked = 0;
  for (let e = first[0]; e; e = episodes.records[episodes.position(String(e.next_episode).split('/').pop()!) ?? -1])
    walked++;
  assert.is(walked, 24, 'next_episode links chain every episode');
});

test('a missing family file is an empty family', async () => {
  const result = await loadCatalog(join(FIXTURES, 'base'), { defaultLanguage: 'en-US' });
  assert.ok(result.ok);
  if (result.ok) {
    assert.is(result.catalog.store('episodes').size, 0);
    assert.is(result.catalog.store('actors').size, 1);
  }
});

test('check-data reports the record and file counts', async () => {
  const { ok, lines } = await checkData(join(FIXTURES, 'base'), 'en-US');
  assert.ok(ok);
  assert.equal(lines, ['ok: 3 records in 4 files']);
});

const names = (await readdir(join(FIXTURES, 'problems'))).sort();

for (const name of names) {
  test(`problem fixture '${name}' reports exactly its expected lines`, async () => {
    const { dir, options } = await problemFixture(name);
    const expected = (await readFile(join(FIXTURES, 'problems', name, 'expected.txt'), 'utf8')).trimEnd().split('\n');
    const result = await loadCatalog(dir, { defaultLanguage: options.defaultLanguage ?? 'en-US' });
    assert.not.ok(result.ok, 'the catalog must be refused');
    if (!result.ok) assert.equal(result.problems.map(formatProblem), expected);
  });
}

test('a trailing comma is reported at the comma, in every spelling, and named', () => {
  const cases: [string, number, number, string][] = [
    ['[{"a":1},]', 1, 9, ']'],
    ['{"a":1,}', 1, 7, '}'],
    ['[\n  {"a": [1, 2,\n  ]}\n]', 2, 14, ']'],
    ['{\r\n\t"a": 1,\r\n\t\r\n}', 2, 8, '}'],
    ['\ufeff[1,]', 1, 3, ']'],
  ];
  for (const [text, line, column, closer] of cases) {
    assert.equal(
      parseJson(text),
      { error: { line, column, message: `trailing comma before '${closer}': JSON allows none, remove it` } },
      JSON.stringify(text),
    );
  }
  assert.equal(
    parseJson('[1,,2]'),
    { error: { line: 1, column: 4, message: 'expected a value' } },
    'a comma followed by a value is not trailing',
  );
});

test('problems from several files come sorted by file', async () => {
  const { dir } = await problemFixture('schema-violations');
  const result = await loadCatalog(dir, { defaultLanguage: 'en-US' });
  assert.not.ok(result.ok);
  if (!result.ok) {
    const files = result.problems.map((p) => p.file);
    assert.equal(files, [...files].sort());
    assert.equal([...new Set(files)], ['actors.json', 'characters.json']);
  }
});

test.run();
