import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { tokenWithRole } from './helpers/admin.ts';
import { caller, type Json } from './helpers/curator-calls.ts';
import { dataFile, startApp, tempDir } from './helpers/http.ts';

const dir = await tempDir();
const app = await startApp({}, dir);
const call = caller(app, await tokenWithRole(app, 'MAINTAINER', 'gate'));
const test = suite('the write gate: languages, keys, a broken overlay');
test.after(async () => app.close());

const overlayFile = join(dir, 'catalog-overlay.json');
/** The overlay as kept: unchanged when a write was refused. */
const kept = () => readFile(overlayFile, 'utf8').catch(() => 'no overlay');
const [location] = await dataFile('locations.json');
const [actor] = await dataFile('actors.json');
const locationPath = `/api/v1/locations/${location!.uuid}`;
const read = async (path: string) => (await (await app.get(path)).json()) as Json;

/** `answer` is a refusal with `status` whose message matches every pattern, and nothing was kept. */
async function refused(
  answer: Promise<{ status: number; body: Json }>,
  status: number,
  ...patterns: RegExp[]
): Promise<void> {
  const before = await kept();
  const { status: got, body } = await answer;
  assert.is(got, status, JSON.stringify(body));
  for (const pattern of patterns) assert.match(String(body.message), pattern);
  assert.is(await kept(), before, 'nothing kept');
}

test('a translated field in a language the catalog does not list is a 400 naming it, kept nowhere', async () => {
  await refused(
    call('PATCH', locationPath, { language: 'xx-YY', name: 'in xx-YY' }),
    400,
    /'xx-YY' is not one of the catalog's languages/,
  );
  await refused(
    call('PATCH', locationPath, { language: '../../etc', name: 'x' }),
    400,
    /\/language: must be a BCP 47 language tag/,
  );
  await refused(
    call('PATCH', locationPath, { language: 'fr-FR', latitude: 1 }),
    400,
    /'fr-FR' is not one of the catalog's languages/,
  );
  await refused(
    call('POST', `${locationPath}/translations`, { language: 'de-DE', name: 'Deutsch' }),
    400,
    /'de-DE' is not one of the catalog's languages/,
  );
  await refused(
    call('POST', '/api/v1/overview/translations', { language: 'fr-FR', title: 'Le signal' }),
    400,
    /'fr-FR' is not one of the catalog's languages/,
  );
  assert.is((await app.get(`${locationPath}/translations`)).status, 200);
});

test('the overview keeps its default language and every language records are translated into; adding one is reversible', async () => {
  await refused(
    call('PATCH', '/api/v1/overview', { languages: ['pt-BR', 'es-ES'] }),
    400,
    /\/languages: DEFAULT_LANGUAGE 'en-US' is not one of the catalog's languages/,
  );
  await refused(
    call('PATCH', '/api/v1/overview', { languages: ['en-US'] }),
    409,
    /rows of translations\/episodes_translations\.json .*'pt-BR' is not one of the catalog's languages/,
  );
  const added = await call('PATCH', '/api/v1/overview', { languages: ['en-US', 'pt-BR', 'es-ES', 'fr-FR'] });
  assert.is(added.status, 200, JSON.stringify(added.body));
  assert.equal(added.body.languages, ['en-US', 'pt-BR', 'es-ES', 'fr-FR']);
  const french = await call('POST', '/api/v1/overview/translations', {
    language: 'fr-FR',
    title: 'Le Signal de la Marée Basse',
  });
  assert.is(french.status, 201, JSON.stringify(french.body));
  assert.is((await read('/api/v1/overview?language=fr-FR')).title, 'Le Signal de la Marée Basse');
  assert.is((await app.get('/api/v1/episodes?language=en-US')).status, 200);
  await refused(
    call('PATCH', '/api/v1/overview', { languages: ['en-US', 'pt-BR', 'es-ES'] }),
    409,
    /overview '[^']+'\/language: 'fr-FR' is not one of/,
  );
  assert.is((await call('DELETE', '/api/v1/overview/translations/fr-FR')).status, 204);
  const back = await call('PATCH', '/api/v1/overview', { languages: ['en-US', 'pt-BR', 'es-ES'] });
  assert.is(back.status, 200, JSON.stringify(back.body));
  const graphql = await read(`/api/graphql?query=${encodeURIComponent('{ overview { title } }')}`);
  assert.ok((graphql.data as Json).overview, JSON.stringify(graphql));
  assert.is((await app.get('/api/v1/episodes?language=fr-FR')).status, 400);
});

test("only a schema's own properties are taken: inherited names are a 400 naming them, in records, translations and socials", async () => {
  const names = [
    'toString',
    'constructor',
    'hasOwnProperty',
    'valueOf',
    'isPrototypeOf',
    '__defineGetter__',
    'propertyIsEnumerable',
    'toLocaleString',
    '__proto__',
  ];
  const before = await read(locationPath);
  const translations = await dataFile('translations/locations_translations.json');
  const untranslated = (await dataFile('locations.json')).find(
    ({ uuid }) => !translations.some((row) => row.location_uuid === uuid && row.language === 'es-ES'),
  )!.uuid as string;
  const social = (actor!.socials as Json[])[0]!.social as string;
  for (const name of names) {
    const field = new RegExp(name === '__proto__' ? "a '__proto__'" : `unknown field '${name}'`);
    const body = `{${JSON.stringify(name)}: "x"}`;
    await refused(call('PATCH', locationPath, body), 400, field);
    await refused(call('PATCH', `${locationPath}/translations/en-US`, body), 400, field);
    await refused(
      call(
        'POST',
        `/api/v1/locations/${untranslated}/translations`,
        `{"language": "es-ES", "name": "x", ${JSON.stringify(name)}: "x"}`,
      ),
      400,
      field,
    );
    await refused(call('PATCH', `/api/v1/actors/${actor!.uuid}/socials/${social}`, body), 400, field);
    await refused(
      call(
        'POST',
        `/api/v1/actors/${actor!.uuid}/socials`,
        `{"social": "Pixelfed", "url": "https://example.org/@a", ${JSON.stringify(name)}: "x"}`,
      ),
      400,
      field,
    );
    await refused(
      call(
        'PATCH',
        `/api/v1/actors/${actor!.uuid}`,
        `{"socials": [{"social": "Pixelfed", "url": "https://example.org/@a", ${JSON.stringify(name)}: "x"}]}`,
      ),
      400,
      field,
    );
  }
  assert.equal(await read(locationPath), before, 'updated_at did not move');
  await refused(call('PATCH', locationPath, { bogus: 1 }), 400, /unknown field 'bogus'/);
});

test('an overlay broken by hand while the server runs: writes are a 503 naming it with Retry-After, reads are served, repairing it resumes', async () => {
  assert.is((await call('PATCH', locationPath, { thumbnail: 'https://example.org/10.png' })).status, 200);
  const good = await kept();
  // The last: a line of text added at the end, which no crash leaves (not taken for a torn append).
  for (const broken of ['{"writes": [', '{"writes": "none"}', `${good}{"seq": 3, "broken\n`]) {
    await writeFile(overlayFile, broken);
    const write = await call('PATCH', locationPath, { thumbnail: 'https://example.org/11.png' });
    assert.is(write.status, 503, JSON.stringify(write.body));
    assert.ok(Number(write.headers.get('retry-after')) > 0);
    assert.match(String(write.body.message), new RegExp(overlayFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    assert.is((await read(locationPath)).thumbnail, 'https://example.org/10.png', 'reads go on with what was served');
    assert.is((await app.get('/api/v1/locations')).status, 200);
    assert.is(await kept(), broken, 'the broken file is left as it is');
  }
  await writeFile(overlayFile, good);
  const resumed = await call('PATCH', locationPath, { thumbnail: 'https://example.org/12.png' });
  assert.is(resumed.status, 200, JSON.stringify(resumed.body));
  assert.is((await read(locationPath)).thumbnail, 'https://example.org/12.png');
});

test.run();
