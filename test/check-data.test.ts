import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkData } from '../src/catalog/check.ts';
import { FAMILIES } from '../src/catalog/families.ts';
import { loadCatalog } from '../src/catalog/load.ts';
import { newRecord } from '../scripts/lib/new-record.ts';
import { editorSettings, SCHEMA_DIR, schemaFiles } from '../scripts/lib/schema-files.ts';
import { FIXTURES, problemFixture } from './helpers/fixtures.ts';
import { json, startApp, tempDir, TEST_ENV } from './helpers/http.ts';
import { ROOT } from './helpers/spawn.ts';

/** Runs an npm script's file (through tsx, as npm does) and collects what it says. */
async function script(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...TEST_ENV },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [code] = (await once(child, 'exit')) as [number];
  return { code, stdout, stderr };
}

const EXPECTED: Record<string, RegExp> = {
  'one-sided-link':
    /^episodes\.json:\d+:\d+: record 1 \(uuid 0+-0000-4000-8000-0+e2\) \/season: warning: '\/api\/v1\/seasons\/0+-0000-4000-8000-0+f1' does not link back: its episodes \(seasons\.json, record 0\) should list '\/api\/v1\/episodes\/0+-0000-4000-8000-0+e2'$/,
  'self-link':
    /^episodes\.json:\d+:\d+: record 1 \(uuid [0-9a-f-]+\) \/prev_episode: warning: points to the record itself; remove it or point to another episode$/,
  'episode-numbers':
    /^seasons\.json:\d+:\d+: record 0 \(uuid [0-9a-f-]+\): warning: its 2 episodes should be numbered 1 to 2 \(episode_num repeats 1 and lacks 2\)$/,
  'total-mismatch':
    /^seasons\.json:\d+:\d+: record 0 \(uuid [0-9a-f-]+\) \/duration_total: warning: is 4000 but its episodes last 5000 ms in all; write 5000$/,
};

const names = (await readdir(join(FIXTURES, 'warnings'))).filter((name) => name !== 'not-canonical').sort();

for (const name of names) {
  test(`warning fixture '${name}': served, named on one line, refused by --strict`, async () => {
    const { dir } = await problemFixture(name, 'warnings');
    const loose = await checkData(dir, 'en-US');
    assert.ok(loose.ok, loose.lines.join('\n'));
    const warnings = loose.lines.filter((line) => line.includes(': warning: '));
    assert.is(warnings.length >= 1, true, loose.lines.join('\n'));
    assert.ok(
      warnings.some((line) => EXPECTED[name]!.test(line)),
      `${name}: ${warnings.join('\n')}`,
    );
    assert.match(
      loose.lines.at(-1)!,
      /^ok: \d+ records in \d+ files, \d+ warnings? \(npm run check-data -- --strict refuses them\)$/,
    );
    const strict = await checkData(dir, 'en-US', { strict: true });
    assert.not.ok(strict.ok);
  });
}

test('a file not in canonical form passes, and check-data --strict names it; format-data fixes it', async () => {
  const { dir } = await problemFixture('not-canonical', 'warnings');
  assert.is((await script('scripts/check-data.ts', [dir])).code, 0);
  const strict = await script('scripts/check-data.ts', [dir, '--strict']);
  assert.is(strict.code, 1);
  assert.match(
    strict.stderr,
    /^episodes\.json: warning: not in canonical form \(schema key order, 2-space indentation, final newline\): run npm run format-data$/m,
  );
  const formatted = await script('scripts/format-data.ts', [dir]);
  assert.match(formatted.stdout, /^formatted episodes\.json$/m);
  assert.is((await script('scripts/check-data.ts', [dir, '--strict'])).code, 0);
});

test('the embedded catalog passes check-data --strict', async () => {
  const { code, stdout, stderr } = await script('scripts/check-data.ts', ['data', '--strict']);
  assert.is(code, 0, stderr);
  assert.match(stdout, /^ok: 110 records in 13 files$/m);
});

/** A copy of the embedded catalog in a temporary directory, for `npm run new` to write to. */
async function dataCopy(): Promise<string> {
  const dir = await tempDir();
  await cp(join(ROOT, 'data'), dir, { recursive: true });
  return dir;
}

/** The arguments of every `npm run new -- …` example in the README, CONTRIBUTING.md and docs/data.md. */
async function documentedNewCommands(): Promise<string[][]> {
  const commands: string[][] = [];
  for (const file of ['README.md', 'CONTRIBUTING.md', 'docs/data.md']) {
    for (const [, line] of (await readFile(join(ROOT, file), 'utf8')).matchAll(/npm run new -- ([a-z]+ [^#`\n]*)/g)) {
      commands.push([...line!.matchAll(/"([^"]*)"|(\S+)/g)].map(([, quoted, bare]) => quoted ?? bare!));
    }
  }
  return commands;
}

test('every documented npm run new example passes check-data --strict as it is', async () => {
  const commands = await documentedNewCommands();
  assert.ok(
    commands.some((args) => args[0] === 'locations') && commands.some((args) => args[0] === 'episodes'),
    JSON.stringify(commands),
  );
  for (const args of commands) {
    const dir = await dataCopy();
    const made = await script('scripts/new-record.ts', [...args, '--data', dir]);
    assert.is(made.code, 0, made.stderr);
    assert.not.match(made.stdout, /left for you/, `${args.join(' ')}: ${made.stdout}`);
    assert.match(
      made.stdout,
      /^not yet in pt-BR, es-ES: served in en-US there until you add a row \(--(title|name)\.pt-BR "…", or by hand in translations\/\w+\.json\)$/m,
    );
    const strict = await script('scripts/check-data.ts', [dir, '--strict']);
    assert.is(strict.code, 0, `${args.join(' ')}: ${strict.stderr}`);
  }
});

const REQUIRED_OPTIONS: Record<string, Record<string, string>> = {
  actors: { first_name: 'Rui' },
  characters: { first_name: 'Inês' },
  episodes: { season: '3', duration: '2700000', title: 'The Last Tide' },
  seasons: { title: 'Season Four' },
  locations: { name: 'Old Cannery' },
  soundtracks: { name: 'Harbour Lights' },
  games: { name: 'Signal Runner' },
};

test('npm run new of every family, given its required fields, passes --strict', async () => {
  assert.equal(Object.keys(REQUIRED_OPTIONS).sort(), [...FAMILIES.keys()].filter((name) => name !== 'overview').sort());
  for (const [name, options] of Object.entries(REQUIRED_OPTIONS)) {
    const dir = await dataCopy();
    const made = await newRecord(dir, name, options, 'en-US');
    assert.equal(made.todo, [], name);
    const strict = await checkData(dir, 'en-US', { strict: true });
    assert.ok(strict.ok, `${name}: ${strict.lines.join('\n')}`);
  }
});

test('npm run new writes a row in another language only with its fields, in the catalog spelling of its tag', async () => {
  const dir = await dataCopy();
  const made = await newRecord(
    dir,
    'locations',
    { name: 'Old Cannery', 'name.PT-br': 'Antiga Fábrica de Conservas', 'description.es-ES': 'Una fábrica' },
    'en-US',
  );
  const file = await readFile(join(dir, 'translations', 'locations_translations.json'), 'utf8');
  const rows = (JSON.parse(file) as Record<string, unknown>[]).filter((row) => row.location_uuid === made.uuid);
  assert.equal(
    rows.map((row) => [row.language, row.name]),
    [
      ['en-US', 'Old Cannery'],
      ['pt-BR', 'Antiga Fábrica de Conservas'],
      ['es-ES', undefined],
    ],
  );
  assert.equal(made.todo, ['translations/locations_translations.json: the es-ES row needs name']);
  assert.is(made.note, undefined);
  const before = await readFile(join(dir, 'locations.json'), 'utf8');
  const refusal = (name: string, options: Record<string, string>) =>
    newRecord(dir, name, options, 'en-US').then(
      () => 'accepted',
      (error: Error) => error.message,
    );
  assert.match(
    await refusal('locations', { name: 'Pier', 'name.fr-FR': 'Quai' }),
    /^--name\.fr-FR: 'fr-FR' is not one of the catalog's languages \(en-US, pt-BR, es-ES\)/,
  );
  assert.match(
    await refusal('actors', { first_name: 'Rui', 'first_name.pt-BR': 'Rui' }),
    /^--first_name\.pt-BR: actors have no translated field 'first_name' \(they have no translations\)$/,
  );
  assert.is(await readFile(join(dir, 'locations.json'), 'utf8'), before, 'a refused command writes nothing');
});

test('npm run new links a new episode to its season: listed, numbered and chained after the last', async () => {
  const dir = await dataCopy();
  const made = await script('scripts/new-record.ts', [
    'episodes',
    '--data',
    dir,
    '--season',
    '3',
    '--duration',
    '2700000',
    '--title',
    'The Last Tide',
  ]);
  assert.is(made.code, 0, made.stderr);
  const href = /^added (\/api\/v1\/episodes\/[0-9a-f-]{36})$/m.exec(made.stdout)?.[1];
  assert.ok(href, made.stdout);
  const seasons = JSON.parse(await readFile(join(dir, 'seasons.json'), 'utf8')) as Record<string, unknown>[];
  const third = seasons.find((s) => s.season_num === 3)!;
  assert.ok((third.episodes as string[]).includes(href!), "the season's list has it");
  const episodes = JSON.parse(await readFile(join(dir, 'episodes.json'), 'utf8')) as Record<string, unknown>[];
  assert.is(episodes.find((e) => e.href === href)!.episode_num, 9);
  assert.is(episodes.find((e) => e.next_episode === href)!.episode_num, 8, 'the previous last episode links to it');
});

test('the JSON Schema files for editors are the ones the validator uses (npm run schemas writes them)', async () => {
  for (const [name, text] of schemaFiles())
    assert.fixture(await readFile(join(ROOT, SCHEMA_DIR, name), 'utf8'), text, `${name} is stale: run npm run schemas`);
  assert.fixture(
    await readFile(join(ROOT, '.vscode', 'settings.json'), 'utf8'),
    editorSettings(),
    '.vscode/settings.json is stale: run npm run schemas',
  );
});

test('created_at and updated_at are optional: a record without them loads and is served without them', async () => {
  const { dir } = await problemFixture('not-canonical', 'warnings');
  const actors = JSON.parse(await readFile(join(dir, 'actors.json'), 'utf8')) as Record<string, unknown>[];
  delete actors[0]!.created_at;
  delete actors[0]!.updated_at;
  await writeFile(join(dir, 'actors.json'), JSON.stringify(actors));
  assert.ok((await loadCatalog(dir, { defaultLanguage: 'en-US' })).ok);
  const server = await startApp({ DATA_DIR: dir });
  try {
    const actor = await json<Record<string, unknown>>(await server.get(`/api/v1/actors/${actors[0]!.uuid}`));
    assert.is(actor.first_name, 'Ana');
    assert.not.ok('created_at' in actor);
    assert.not.ok('updated_at' in actor);
  } finally {
    await server.close();
  }
});

test.run();
