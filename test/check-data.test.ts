import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkData } from '../src/catalog/check.ts';
import { loadCatalog } from '../src/catalog/load.ts';
import { editorSettings, SCHEMA_DIR, schemaFiles } from '../scripts/lib/schema-files.ts';
import { FIXTURES, problemFixture } from './helpers/fixtures.ts';
import { json, startApp, tempDir, TEST_ENV } from './helpers/http.ts';
import { ROOT } from './helpers/spawn.ts';

/** Runs an npm script's file (through tsx, as npm does) and collects what it says. */
async function script(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], { cwd: ROOT, env: { ...process.env, ...TEST_ENV }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [code] = (await once(child, 'exit')) as [number];
  return { code, stdout, stderr };
}

const EXPECTED: Record<string, RegExp> = {
  'one-sided-link': /^episodes\.json:\d+:\d+: record 1 \(uuid 0+-0000-4000-8000-0+e2\) \/season: warning: '\/api\/v1\/seasons\/0+-0000-4000-8000-0+f1' does not link back: its episodes \(seasons\.json, record 0\) should list '\/api\/v1\/episodes\/0+-0000-4000-8000-0+e2'$/,
  'self-link': /^episodes\.json:\d+:\d+: record 1 \(uuid [0-9a-f-]+\) \/prev_episode: warning: points to the record itself; remove it or point to another episode$/,
  'episode-numbers': /^seasons\.json:\d+:\d+: record 0 \(uuid [0-9a-f-]+\): warning: its 2 episodes should be numbered 1 to 2 \(episode_num repeats 1 and lacks 2\)$/,
  'total-mismatch': /^seasons\.json:\d+:\d+: record 0 \(uuid [0-9a-f-]+\) \/duration_total: warning: is 4000 but its episodes last 5000 ms in all; write 5000$/,
};

const names = (await readdir(join(FIXTURES, 'warnings'))).filter((name) => name !== 'not-canonical').sort();

for (const name of names) {
  test(`warning fixture '${name}': served, named on one line, refused by --strict`, async () => {
    const { dir } = await problemFixture(name, 'warnings');
    const loose = await checkData(dir, 'en-US');
    assert.ok(loose.ok, loose.lines.join('\n'));
    const warnings = loose.lines.filter((line) => line.includes(': warning: '));
    assert.is(warnings.length >= 1, true, loose.lines.join('\n'));
    assert.ok(warnings.some((line) => EXPECTED[name]!.test(line)), `${name}: ${warnings.join('\n')}`);
    assert.match(loose.lines.at(-1)!, /^ok: \d+ records in \d+ files, \d+ warnings? \(npm run check-data -- --strict refuses them\)$/);
    const strict = await checkData(dir, 'en-US', { strict: true });
    assert.not.ok(strict.ok);
  });
}

test('a file not in canonical form passes, and check-data --strict names it; format-data fixes it', async () => {
  const { dir } = await problemFixture('not-canonical', 'warnings');
  assert.is((await script('scripts/check-data.ts', [dir])).code, 0);
  const strict = await script('scripts/check-data.ts', [dir, '--strict']);
  assert.is(strict.code, 1);
  assert.match(strict.stderr, /^episodes\.json: warning: not in canonical form \(schema key order, 2-space indentation, final newline\): run npm run format-data$/m);
  const formatted = await script('scripts/format-data.ts', [dir]);
  assert.match(formatted.stdout, /^formatted episodes\.json$/m);
  assert.is((await script('scripts/check-data.ts', [dir, '--strict'])).code, 0);
});

test('the embedded catalog passes check-data --strict', async () => {
  const { code, stdout, stderr } = await script('scripts/check-data.ts', ['data', '--strict']);
  assert.is(code, 0, stderr);
  assert.match(stdout, /^ok: 110 records in 13 files$/m);
});

test('npm run new adds an episode that passes --strict once the fields it leaves are filled', async () => {
  const dir = await tempDir();
  await cp(join(ROOT, 'data'), dir, { recursive: true });
  const made = await script('scripts/new-record.ts', ['episodes', '--data', dir, '--season', '3', '--duration', '2700000', '--title', 'The Last Tide']);
  assert.is(made.code, 0, made.stderr);
  const href = /^added (\/api\/v1\/episodes\/[0-9a-f-]{36})$/m.exec(made.stdout)?.[1];
  assert.ok(href, made.stdout);
  assert.match(made.stdout, /the pt-BR row needs title/);
  const before = await script('scripts/check-data.ts', [dir, '--strict']);
  assert.is(before.code, 1, 'the titles it could not know are named');
  assert.match(before.stderr, /\/title: missing required field 'title'/);
  // The contributor writes the titles it left, and nothing else.
  const file = join(dir, 'translations', 'episodes_translations.json');
  const rows = JSON.parse(await readFile(file, 'utf8')) as Record<string, string>[];
  for (const row of rows) if (row.episode_uuid === href!.split('/').pop() && !row.title) row.title = `Title in ${row.language}`;
  await writeFile(file, `${JSON.stringify(rows, null, 2)}\n`);
  const after = await script('scripts/check-data.ts', [dir, '--strict']);
  assert.is(after.code, 0, after.stderr);
  const seasons = JSON.parse(await readFile(join(dir, 'seasons.json'), 'utf8')) as Record<string, unknown>[];
  const third = seasons.find((s) => s.season_num === 3)!;
  assert.ok((third.episodes as string[]).includes(href!), "the season's list has it");
  const episodes = JSON.parse(await readFile(join(dir, 'episodes.json'), 'utf8')) as Record<string, unknown>[];
  assert.is(episodes.find((e) => e.href === href)!.episode_num, 9);
  assert.is(episodes.find((e) => e.next_episode === href)!.episode_num, 8, 'the previous last episode links to it');
});

test('the JSON Schema files for editors are the ones the validator uses (npm run schemas writes them)', async () => {
  for (const [name, text] of schemaFiles()) assert.fixture(await readFile(join(ROOT, SCHEMA_DIR, name), 'utf8'), text, `${name} is stale: run npm run schemas`);
  assert.fixture(await readFile(join(ROOT, '.vscode', 'settings.json'), 'utf8'), editorSettings(), '.vscode/settings.json is stale: run npm run schemas');
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
