import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Answer } from './helpers/curator-calls.ts';
import { copyWrite, curatorOnCopy, echoWrite, pictureWrite, type Write } from './helpers/curator-copies.ts';
import { dataFile, startApp, tempDir } from './helpers/http.ts';
import { runScript } from './helpers/spawn.ts';

// A model-based test of the write gate: random short sequences of writes, good and bad, on a
// server whose data/ is a copy that each sequence's export folds into. Besides invented
// values, the writes copy real records (from data/ and from GET answers), send records back
// as read, and point pictures at other records'. After every write, a 2xx is what a GET
// serves and a refusal kept nothing; after every sequence the export and `check-data
// --strict` pass on the result, and a server booted on it serves what the running one did.
const { dir, dataDir, app, call, env: ENV } = await curatorOnCopy('model');
const overlay = () => readFile(join(dir, 'catalog-overlay.json'), 'utf8').catch(() => 'no overlay');
const test = suite('catalog writes: random sequences against the gate');
test.after(async () => app.close());

const uuids = async (file: string) => (await dataFile(file)).map((record) => record.uuid as string);
const targets = {
  locations: await uuids('locations.json'),
  games: await uuids('games.json'),
  episodes: await uuids('episodes.json'),
  seasons: await uuids('seasons.json'),
  actors: await uuids('actors.json'),
  soundtracks: await uuids('soundtracks.json'),
};
const seasonHrefs = targets.seasons.map((uuid) => `/api/v1/seasons/${uuid}`);
/** Languages the catalog has, may get, and never will (malformed or unlisted). */
const language = fc.constantFrom('en-US', 'pt-BR', 'es-ES', 'fr-FR', 'pt-br', 'xx-YY', '../etc');
const uuidOf = (family: keyof typeof targets) => fc.constantFrom(...targets[family]);
const text = fc.constantFrom('Quay', 'Cais', '', 'x'.repeat(300));
const strayKey = fc.constantFrom('toString', 'constructor', 'valueOf', 'bogus', 'hasOwnProperty');
const translated = fc.constantFrom('locations', 'games', 'episodes', 'seasons') as fc.Arbitrary<
  'locations' | 'games' | 'episodes' | 'seasons'
>;
const titleOf = (family: string) => (family === 'locations' || family === 'games' ? 'name' : 'title');

const write: fc.Arbitrary<Write> = fc.oneof(
  copyWrite,
  echoWrite,
  pictureWrite,
  fc
    .record({ family: translated, uuid: fc.nat(), language: fc.option(language), value: text })
    .map(({ family, uuid, language, value }) => ({
      method: 'PATCH' as const,
      path: `/api/v1/${family}/${targets[family][uuid % targets[family].length]}`,
      body: { [titleOf(family)]: value, ...(language ? { language } : {}) },
    })),
  fc.record({ family: translated, uuid: fc.nat(), language }).map(({ family, uuid, language }) => ({
    method: 'POST' as const,
    path: `/api/v1/${family}/${targets[family][uuid % targets[family].length]}/translations`,
    body: { language, [titleOf(family)]: 'Traduzido' },
  })),
  fc.record({ family: translated, uuid: fc.nat(), language }).map(({ family, uuid, language }) => ({
    method: 'DELETE' as const,
    path: `/api/v1/${family}/${targets[family][uuid % targets[family].length]}/translations/${encodeURIComponent(language)}`,
  })),
  fc
    .subarray(['en-US', 'pt-BR', 'es-ES', 'fr-FR'])
    .map((languages) => ({ method: 'PATCH' as const, path: '/api/v1/overview', body: { languages } })),
  language.map((language) => ({
    method: 'POST' as const,
    path: '/api/v1/overview/translations',
    body: { language, title: 'Le Signal' },
  })),
  language.map((language) => ({
    method: 'DELETE' as const,
    path: `/api/v1/overview/translations/${encodeURIComponent(language)}`,
  })),
  fc.record({ name: text, language: fc.option(language) }).map(({ name, language }) => ({
    method: 'POST' as const,
    path: '/api/v1/locations',
    body: { name, ...(language ? { language } : {}) },
  })),
  fc
    .record({ season: fc.constantFrom(...seasonHrefs), duration: fc.integer({ min: -1, max: 3_000_000 }) })
    .map(({ season, duration }) => ({
      method: 'POST' as const,
      path: '/api/v1/episodes',
      body: { title: 'Random', season, duration },
    })),
  fc
    .record({
      uuid: uuidOf('episodes'),
      duration: fc.integer({ min: 0, max: 3_000_000 }),
      season: fc.option(fc.constantFrom(...seasonHrefs)),
    })
    .map(({ uuid, duration, season }) => ({
      method: 'PATCH' as const,
      path: `/api/v1/episodes/${uuid}`,
      body: { duration, ...(season ? { season } : {}) },
    })),
  fc
    .record({
      family: fc.constantFrom('locations', 'soundtracks', 'episodes', 'games') as fc.Arbitrary<
        'locations' | 'soundtracks' | 'episodes' | 'games'
      >,
      uuid: fc.nat(),
    })
    .map(({ family, uuid }) => ({
      method: 'DELETE' as const,
      path: `/api/v1/${family}/${targets[family][uuid % targets[family].length]}`,
    })),
  fc
    .record({ uuid: uuidOf('locations'), key: strayKey })
    .map(({ uuid, key }) => ({ method: 'PATCH' as const, path: `/api/v1/locations/${uuid}`, body: { [key]: 'x' } })),
  fc
    .record({ uuid: uuidOf('actors'), key: fc.option(strayKey), social: fc.constantFrom('Pixelfed', 'Instagram') })
    .map(({ uuid, key, social }) => ({
      method: 'POST' as const,
      path: `/api/v1/actors/${uuid}/socials`,
      body: { social, url: 'https://example.org/@a', ...(key ? { [key]: 'x' } : {}) },
    })),
  fc.record({ uuid: uuidOf('actors'), key: fc.option(strayKey) }).map(({ uuid, key }) => ({
    method: 'PATCH' as const,
    path: `/api/v1/actors/${uuid}/socials/Instagram`,
    body: key ? { [key]: 'x' } : { handle: '@changed' },
  })),
);

/** The GET that serves what `done` answered: its Location or path, in the answer's language. */
function servedPath(done: Write, answer: Answer): string {
  const path = answer.headers.get('location') ?? done.path;
  const inLanguage =
    typeof answer.body.language === 'string' && !path.includes('/translations/') && !path.includes('/socials');
  return inLanguage ? `${path}?language=${answer.body.language}` : path;
}

const served = async (path: string) => (await (await app.get(path)).json()) as Record<string, unknown>;

async function check(done: Write): Promise<void> {
  const before = await overlay();
  const body = done.from ? await done.from(served) : done.body;
  const answer = await call(done.method, done.path, body);
  const what = `${done.method} ${done.path} ${JSON.stringify(body) ?? ''} → ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`;
  assert.ok(answer.status < 500, what);
  if (answer.status >= 400) {
    assert.is(await overlay(), before, `refused yet kept: ${what}`);
    assert.type(answer.body.message, 'string');
  } else if (answer.status === 204) {
    assert.is((await app.get(done.path)).status, 404, `deleted yet served: ${what}`);
  } else {
    const served = await app.get(servedPath(done, answer));
    assert.is(served.status, 200, what);
    assert.equal(await served.json(), answer.body, `answered, not served: ${what}`);
  }
}

/** Every record of `server`, family by family in the default language, pictures with their origin taken off. */
async function everything(server: typeof app): Promise<string> {
  const families = ['actors', 'characters', 'episodes', 'seasons', 'locations', 'soundtracks', 'games'];
  const lists = await Promise.all(
    families.map(async (family) => (await server.get(`/api/v1/${family}?size=50`)).text()),
  );
  return [...lists, await (await server.get('/api/v1/overview')).text()].join('\n').replaceAll(server.url, '');
}

/**
 * A server started on the exported data/ (with an overlay of its own, empty) serves every
 * record as the running one does, every picture it names answers, and no data file holds the
 * running server's own address: its pictures are kept as paths.
 */
async function bootsAndServesTheSame(): Promise<void> {
  for (const file of await readdir(dataDir, { recursive: true }))
    if (file.endsWith('.json'))
      assert.not.ok((await readFile(join(dataDir, file), 'utf8')).includes(app.url), `${file} holds ${app.url}`);
  const booted = await startApp({ DATA_DIR: dataDir }, await tempDir());
  try {
    const [running, fresh] = [await everything(app), await everything(booted)];
    const at = [...running].findIndex((c, i) => c !== fresh[i]);
    assert.ok(
      at === -1 && fresh.length === running.length,
      `a server booted on the export serves other answers than the running one: running …${running.slice(at - 300, at + 200)}… booted …${fresh.slice(at - 300, at + 200)}…`,
    );
    for (const picture of new Set(fresh.match(/"\/images\/[^"]+"/g) ?? [])) {
      const answer = await booted.get(JSON.parse(picture) as string);
      assert.is(answer.status, 200, `${picture} on the booted server`);
    }
  } finally {
    await booted.close();
  }
}

test('after random writes every 2xx is served, every refusal kept nothing, and the export passes check-data --strict', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 10 }), async (writes) => {
      for (const done of writes) await check(done);
      const exported = await runScript('scripts/catalog.ts', ['export'], ENV);
      assert.is(exported.code, 0, exported.stderr + exported.stdout);
      const checked = await runScript('scripts/check-data.ts', [dataDir, '--strict'], ENV);
      assert.is(checked.code, 0, checked.stderr + checked.stdout);
      await bootsAndServesTheSame();
    }),
    // The server keeps its state from one run to the next: a shrunk sequence would not replay the failure.
    { numRuns: 8, endOnFailure: true, includeErrorInReport: true },
  );
});

test.run();
