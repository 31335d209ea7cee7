import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Json } from './helpers/curator-calls.ts';
import { COPIED_FAMILIES, copyOf, curatorOnCopy, RECORDS } from './helpers/curator-copies.ts';
import { startApp, tempDir } from './helpers/http.ts';
import { runScript } from './helpers/spawn.ts';

// What a curator does first: copy a record and change its name. Every family's first record is
// copied twice (from data/, pictures as paths; from a GET, pictures as this server's URLs),
// written, exported, checked with --strict and booted on; the copies show the originals' pictures.
const { dataDir, app, call, env: ENV } = await curatorOnCopy('copier');
const test = suite("catalog writes: a curator's copies export into data that passes check-data --strict");
test.after(async () => app.close());

/** Fields placing a record one to one or in a numbered chain: a copy that keeps them takes another record's place. */
const PLACES = [
  ...['character', 'actor', 'episodes', 'next_episode', 'prev_episode', 'next_season', 'prev_season'],
  ...['episode_num', 'season_num'],
];
const copies: { family: string; uuid: string; original: Json }[] = [];

/** Writes `copy` as a new record of `family`; a 409 must name a placing field, and the copy without those goes in. */
async function write(family: string, copy: Json, original: Json): Promise<void> {
  let answer = await call('POST', `/api/v1/${family}`, copy);
  if (answer.status === 409) {
    const named = PLACES.filter((field) => String(answer.body.message).includes(field));
    assert.ok(named.length > 0, `${family}: ${JSON.stringify(answer.body)}`);
    const trimmed = Object.fromEntries(Object.entries(copy).filter(([key]) => !PLACES.includes(key)));
    answer = await call('POST', `/api/v1/${family}`, trimmed);
  }
  assert.is(answer.status, 201, `${family}: ${JSON.stringify(answer.body)}`);
  copies.push({ family, uuid: String(answer.body.uuid), original });
}

test('the first record of every family, copied from data/ and from a GET, is written', async () => {
  for (const family of COPIED_FAMILIES) {
    const original = RECORDS[family]![0]!;
    await write(family, copyOf(original, []), original);
    const served = (await (await app.get(`/api/v1/${family}/${String(original.uuid)}`)).json()) as Json;
    assert.match(String(served.thumbnail), `${app.url}/images/`);
    await write(family, copyOf(served, []), original);
  }
});

test("a copy shows the original's pictures; deleting the original is a 409 naming the copies", async () => {
  for (const { family, uuid, original } of copies) {
    const copy = (await (await app.get(`/api/v1/${family}/${uuid}`)).json()) as Json;
    assert.is(copy.thumbnail, `${app.url}${String(original.thumbnail)}`, family);
    const picture = await (await app.get(String(original.thumbnail))).text();
    assert.equal(await (await fetch(String(copy.thumbnail))).text(), picture);
  }
  const [first] = copies;
  const refused = await call('DELETE', `/api/v1/${first!.family}/${String(first!.original.uuid)}`);
  assert.is(refused.status, 409, JSON.stringify(refused.body));
  for (const { uuid } of copies.filter((copy) => copy.family === first!.family))
    assert.match(String(refused.body.message), uuid);
  assert.match(
    String(refused.body.message),
    /\/thumbnail: '[^']+' is the picture drawn for actors record '[^']+', which the write deletes: give this record another picture first/,
  );
});

test('hostile picture paths are a 400 naming the field, never a 500, and no picture is served at them', async () => {
  const actor = String(RECORDS.actors![1]!.uuid);
  const paths = [
    '/images/toString/x.svg',
    '/images/__proto__/x.svg',
    '/images/constructor/constructor.svg',
    `/images/actors/${actor}-0.svg`,
    `/images/actors/${actor}-1000.svg`,
    `/images/actors/${actor.toUpperCase()}.svg`,
    `/images/actors/${'a'.repeat(10_000)}.svg`,
    `${app.url}/images/actors/00000000-0000-4000-8000-000000000000.svg`,
  ];
  for (const path of paths) {
    for (const body of [{ thumbnail: path }, { images: [path] }]) {
      const answer = await call('PATCH', `/api/v1/actors/${actor}`, body);
      assert.is(answer.status, 400, `${path.slice(0, 80)}: ${JSON.stringify(answer.body).slice(0, 300)}`);
      assert.match(String(answer.body.message), Object.keys(body)[0] === 'images' ? '/images/0: ' : '/thumbnail: ');
    }
    // A URL this long is refused before routing (414).
    if (path.startsWith('/images/'))
      assert.is((await app.get(path)).status, path.length > 8000 ? 414 : 404, path.slice(0, 80));
  }
});

test('copies and a delete of their original sent at once: no record is left showing a picture of a deleted one', async () => {
  const original = RECORDS.soundtracks![2]!;
  const path = `/api/v1/soundtracks/${String(original.uuid)}`;
  const answers = await Promise.all([
    ...Array.from({ length: 6 }, (_, i) => call('POST', '/api/v1/soundtracks', copyOf(original, [i]))),
    call('DELETE', path),
    ...Array.from({ length: 6 }, () => call('POST', '/api/v1/soundtracks', copyOf(original, []))),
  ]);
  const deleted = answers[6]!;
  assert.ok([204, 409].includes(deleted.status), JSON.stringify(deleted.body));
  for (const answer of answers.filter((_, i) => i !== 6))
    assert.ok([201, 400].includes(answer.status), JSON.stringify(answer.body));
  assert.is((await app.get(path)).status, deleted.status === 204 ? 404 : 200);
  const listed = await (await app.get('/api/v1/soundtracks?size=50')).text();
  assert.is(listed.includes(`/images/soundtracks/${String(original.uuid)}`), deleted.status === 409);
});

test('exported, the data holds picture paths only, passes check-data --strict, and a server boots on it serving the copies', async () => {
  const exported = await runScript('scripts/catalog.ts', ['export'], ENV);
  assert.is(exported.code, 0, exported.stderr);
  for (const file of await readdir(dataDir, { recursive: true }))
    if (file.endsWith('.json')) assert.not.match(await readFile(join(dataDir, file), 'utf8'), app.url, file);
  const checked = await runScript('scripts/check-data.ts', [dataDir, '--strict'], ENV);
  assert.is(checked.code, 0, checked.stderr + checked.stdout);
  const booted = await startApp({ DATA_DIR: dataDir }, await tempDir());
  try {
    for (const { family, uuid, original } of copies) {
      const copy = (await (await booted.get(`/api/v1/${family}/${uuid}`)).json()) as Json;
      assert.is(copy.thumbnail, `${booted.url}${String(original.thumbnail)}`);
      const picture = await booted.get(String(original.thumbnail));
      assert.is(picture.status, 200);
      assert.match(await picture.text(), /<title id="t">[^<]+<\/title>/);
    }
  } finally {
    await booted.close();
  }
});

test.run();
