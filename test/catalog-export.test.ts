import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { post } from './helpers/accounts-app.ts';
import { tempDir, TEST_ENV } from './helpers/http.ts';
import { readOverlayFile } from './helpers/overlay-file.ts';
import { listeningUrl, ROOT, runScript, runToExit, startServer } from './helpers/spawn.ts';

type Json = Record<string, unknown>;

// The server runs as a user runs it (its own process, on a copy of data/), so that it can be
// killed the hard way and the command-line tools can share its overlay file.
const dir = await tempDir();
const dataDir = join(dir, 'data');
await cp(join(ROOT, 'data'), dataDir, { recursive: true });
// PUBLIC_URL: picture URLs are absolute, and each restart listens on another port.
const ENV = {
  ...TEST_ENV,
  LOG_LEVEL: 'info',
  DATA_DIR: dataDir,
  ACCOUNTS_FILE: join(dir, 'var', 'accounts.json'),
  PUBLIC_URL: 'https://catalog.example.org',
};
const overlayFile = join(dir, 'var', 'catalog-overlay.json');

const made = await runScript(
  'scripts/accounts.ts',
  ['create', '--username', 'curator', '--email', 'curator@example.org', '--role', 'MAINTAINER'],
  { ...ENV, ACCOUNT_PASSWORD: 'the curator password' },
);
if (made.code !== 0) throw new Error(made.stderr);

let server = startServer(ENV);
let url = await listeningUrl(server);
const token = String(
  (await post(url, '/api/v1/auth/authenticate', { username: 'curator', password: 'the curator password' })).body.token,
);

const test = suite('catalog writes: durability, changes and export');
test.after(() => void server.child.kill('SIGKILL'));

async function restart(signal: NodeJS.Signals): Promise<void> {
  const exited = once(server.child, 'exit');
  server.child.kill(signal);
  await exited;
  server = startServer(ENV);
  url = await listeningUrl(server);
}

async function write(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: Json }> {
  const response = await fetch(url + path, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Json) : {} };
}

const catalogCli = (...args: string[]) => runScript('scripts/catalog.ts', args, ENV);

/** Every data file's bytes, hashed: what changed on disk between two moments. */
async function dataFingerprint(): Promise<string> {
  const hash = createHash('sha256');
  for (const folder of [dataDir, join(dataDir, 'translations')]) {
    for (const file of (await readdir(folder)).filter((name) => name.endsWith('.json')).sort())
      hash.update(file).update(await readFile(join(folder, file)));
  }
  return hash.digest('hex');
}

const seasons = JSON.parse(await readFile(join(dataDir, 'seasons.json'), 'utf8')) as Json[];
const actors = JSON.parse(await readFile(join(dataDir, 'actors.json'), 'utf8')) as Json[];
const locations = JSON.parse(await readFile(join(dataDir, 'locations.json'), 'utf8')) as Json[];
const touched: string[] = [];

/** What a reader sees of the catalog: every list, every record a write touched, the overview, a search, a translation and GraphQL. */
async function answers(): Promise<string[]> {
  const families = ['actors', 'characters', 'episodes', 'seasons', 'locations', 'soundtracks', 'games'];
  const paths = [
    ...families.map((family) => `/api/v1/${family}?size=50`),
    ...families.map((family) => `/api/v1/${family}?size=50&language=pt-BR&sort=updated_at&order=desc`),
    '/api/v1/overview',
    '/api/v1/episodes?q=exported',
    `/api/v1/locations/${String(locations[3]!.uuid)}/translations`,
    `/api/graphql?query=${encodeURIComponent('{ episodes(size: 50) { items { title season { title } } } overview { data_count { episodes } } }')}`,
    ...touched,
  ];
  return Promise.all(
    paths.map(async (path) => {
      const response = await fetch(url + path);
      const text = await response.text();
      // GraphQL names the data version, which new data files change (an export's): compared without it.
      const versionless = text.replace(/"catalog_version":"[^"]*"/, '"catalog_version":"…"');
      const etag = versionless === text ? response.headers.get('etag') : '(with the version)';
      return `${path} ${response.status} ${etag} ${versionless}`;
    }),
  );
}

/** Asserts two snapshots of `answers()` are the same, naming the first answer that differs. */
function sameAnswers(now: string[], before: string[], when: string): void {
  const differs = now.findIndex((answer, n) => answer !== before[n]);
  assert.ok(
    differs === -1 && now.length === before.length,
    `${when}: ${before[differs]?.slice(0, 300)}\n  now: ${now[differs]?.slice(0, 300)}`,
  );
}

test('a 2xx is durable: the server killed with SIGKILL right after it serves the write when started again', async () => {
  const created = await write('POST', '/api/v1/soundtracks', { name: 'Exported Theme', duration: 201_000 });
  assert.is(created.status, 201, JSON.stringify(created.body));
  await restart('SIGKILL');
  const read = await fetch(`${url}/api/v1/soundtracks/${String(created.body.uuid)}`);
  assert.is(read.status, 200);
  assert.equal(await read.json(), created.body);

  const etag = read.headers.get('etag')!;
  const patched = await write(
    'PATCH',
    `/api/v1/soundtracks/${String(created.body.uuid)}`,
    { duration: 202_000 },
    { 'If-Match': etag },
  );
  assert.is(patched.status, 200);
  await restart('SIGKILL');
  assert.is(
    ((await (await fetch(`${url}/api/v1/soundtracks/${String(created.body.uuid)}`)).json()) as Json).duration,
    202_000,
  );
  touched.push(`/api/v1/soundtracks/${String(created.body.uuid)}`);
});

test('changes lists every write: number, time, account, request and what each changed', async () => {
  const episode = await write('POST', '/api/v1/episodes', {
    title: 'The Exported One',
    description: 'Made to be exported',
    language: 'en-US',
    duration: 1_500_000,
    season: seasons[1]!.href,
  });
  assert.is(episode.status, 201, JSON.stringify(episode.body));
  assert.is(
    (await write('PATCH', `/api/v1/actors/${String(actors[4]!.uuid)}`, { nationality: 'Icelandic' })).status,
    200,
  );
  assert.is((await write('DELETE', `/api/v1/locations/${String(locations[3]!.uuid)}/translations/es-ES`)).status, 204);
  assert.is(
    (
      await write('POST', `/api/v1/locations/${String(locations[3]!.uuid)}/translations`, {
        language: 'es-ES',
        name: 'Muelle exportado',
      })
    ).status,
    201,
  );
  touched.push(
    `/api/v1/episodes/${String(episode.body.uuid)}`,
    `/api/v1/seasons/${String(seasons[1]!.uuid)}`,
    `/api/v1/actors/${String(actors[4]!.uuid)}`,
  );

  const listed = await catalogCli('changes');
  assert.is(listed.code, 0, listed.stderr);
  const lines = listed.stdout.trim().split('\n');
  assert.match(lines[0]!, /^#2 \d{4}-\d\d-\d\dT[\d:.]+Z curator: POST \/api\/v1\/soundtracks$/);
  assert.ok(lines.includes(`    added episode '${String(episode.body.uuid)}'`), listed.stdout);
  assert.ok(
    lines.some((line) => new RegExp(`^    changed season '${String(seasons[1]!.uuid)}': .*episodes`).test(line)),
    listed.stdout,
  );
  assert.ok(
    lines.some((line) => /^    changed actor '.*': nationality, updated_at$/.test(line)),
    listed.stdout,
  );
  assert.ok(
    lines.includes(`    removed the es-ES translation of location '${String(locations[3]!.uuid)}'`),
    listed.stdout,
  );
});

test('export --dry-run prints what would change and writes nothing', async () => {
  const before = await dataFingerprint();
  const dry = await catalogCli('export', '--dry-run');
  assert.is(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /^episodes\.json: added episode /m);
  assert.match(
    dry.stdout,
    /^translations\/locations_translations\.json: changed the es-ES translation of location .*: name, description$/m,
  );
  assert.match(dry.stdout, /dry run: \d+ file\(s\) in .* would change; nothing written/);
  assert.is(await dataFingerprint(), before);
  // The data the server booted with is marked first (#1), for the change feed.
  assert.is((await readOverlayFile(overlayFile)).writes.filter((write) => !write.mark).length, 6);
});

test('export round trip: folded into data/ in canonical form while the server runs; restarted on it, every answer is the same', async () => {
  const served = await answers();
  const cursor = (await fetch(`${url}/api/v1/changes?since=now`)).headers.get('catalog-version')!;
  const early = String(
    ((await (await fetch(`${url}/api/v1/changes`)).json()) as { changes: Json[] }).changes[0]!.cursor,
  );
  const exported = await catalogCli('export');
  assert.is(exported.code, 0, exported.stderr);
  assert.match(exported.stdout, /6 write\(s\) folded into 7 file\(s\)/);
  const strict = await runScript('scripts/check-data.ts', [dataDir, '--strict'], ENV);
  assert.is(strict.code, 0, strict.stdout + strict.stderr);
  assert.equal(await readOverlayFile(overlayFile), { writes: [], exported: 7 });
  sameAnswers(await answers(), served, 'the running server answers as before');

  // The running server goes on writing after the export, numbered after what was exported.
  const later = await write('POST', '/api/v1/games', {
    name: 'After The Export',
    language: 'en-US',
    platforms: ['PC'],
  });
  assert.is(later.status, 201, JSON.stringify(later.body));
  touched.push(`/api/v1/games/${String(later.body.uuid)}`);
  const withLater = await answers();
  await restart('SIGTERM');
  sameAnswers(await answers(), withLater, 'restarted on the exported data with the one later write');
  // The writes before the export are in data/ now, no longer in the feed: a cursor from before them is a 410.
  const gone = await fetch(`${url}/api/v1/changes?since=${early}`);
  const refusal = (await gone.json()) as Json;
  assert.is(gone.status, 410, JSON.stringify(refusal));
  assert.match(String(refusal.message), `from the current cursor '${gone.headers.get('catalog-version')}'`);
  assert.match(String(refusal.message), 'Read the catalog again from scratch');
  // A cursor at the export's last write lost nothing: what came after is listed.
  const kept = ((await (await fetch(`${url}/api/v1/changes?since=${cursor}`)).json()) as { changes: Json[] }).changes;
  assert.equal(
    kept.map((change) => change.action),
    ['created', 'created', 'reloaded'],
    'the later write (a game and its translation row), then the exported data',
  );
  assert.not.match(server.output(), /no longer applies/);
  const listed = await catalogCli('changes');
  assert.match(listed.stdout, /^#8 .* curator: POST \/api\/v1\/games$/m, listed.stdout + listed.stderr);

  assert.is((await catalogCli('export')).code, 0);
  await restart('SIGTERM');
  sameAnswers(await answers(), withLater, 'restarted on the exported data with an empty overlay');
  assert.match((await catalogCli('changes')).stdout, /no catalog writes kept in/);
});

test('an export interrupted before it emptied the overlay: its writes are recognised in data/, not reported, and the next export empties them', async () => {
  const actor = actors[6]!;
  assert.is(
    (await write('PATCH', `/api/v1/actors/${String(actor.uuid)}`, { nationality: 'Exported Once' })).status,
    200,
  );
  assert.is(
    (await write('PATCH', `/api/v1/actors/${String(actor.uuid)}`, { nationality: 'Exported Twice' })).status,
    200,
  );
  const served = await answers();
  const unfolded = await readFile(overlayFile, 'utf8');
  assert.is((await catalogCli('export')).code, 0);
  // As if export had stopped between writing data/ and emptying the overlay.
  await writeFile(overlayFile, unfolded);
  await restart('SIGTERM');
  assert.not.match(server.output(), /no longer applies/);
  sameAnswers(await answers(), served, 'restarted on the exported data with its writes still in the overlay');
  const listed = await catalogCli('changes');
  assert.match(listed.stdout, /^#11 .*\n {4}already in data\/: exported/m, listed.stdout);
  assert.match(listed.stdout, /^#12 .*\n {4}already in data\/: exported/m, listed.stdout);
  const again = await catalogCli('export');
  assert.is(again.code, 0, again.stderr);
  assert.match(again.stdout, /2 write\(s\) folded into 0 file\(s\)/);
  assert.equal(await readOverlayFile(overlayFile), { writes: [], exported: 13 });
});

test('a write that data/ changed since is left out at boot with a warning naming it; the server starts', async () => {
  const actor = actors[7]!;
  assert.is((await write('PATCH', `/api/v1/actors/${String(actor.uuid)}`, { nationality: 'Overlaid' })).status, 200);
  server.child.kill('SIGTERM');
  await once(server.child, 'exit');
  const file = join(dataDir, 'actors.json');
  const rows = JSON.parse(await readFile(file, 'utf8')) as Json[];
  rows[7] = { ...rows[7], nationality: 'Edited In data/' };
  await writeFile(file, `${JSON.stringify(rows, null, 2)}\n`);
  server = startServer(ENV);
  url = await listeningUrl(server);
  const report = new RegExp(
    `catalog write 14 \\(PATCH /api/v1/actors/${String(actor.uuid)} by curator at [^)]+\\) no longer applies and is left out: actor '${String(actor.uuid)}' in actors\\.json is not what it was when the write was made: data/ changed it since\nsee it with [^\n]+`,
  ).exec(server.output())?.[0];
  assert.ok(report, server.output());
  assert.is(
    ((await (await fetch(`${url}/api/v1/actors/${String(actor.uuid)}`)).json()) as Json).nationality,
    'Edited In data/',
  );
  const listed = await catalogCli('changes');
  assert.match(listed.stdout, /^#14 .*\n {4}left out, no longer applies: actor /m);
  const refused = await catalogCli('export');
  assert.is(refused.code, 1);
  assert.is(refused.stderr, `export refused: 1 write(s) would be lost\n${report}\n`);
  const dropped = await catalogCli('export', '--drop-stale');
  assert.is(dropped.code, 0, dropped.stderr);
  assert.is(dropped.stderr, `--drop-stale: 1 write(s) dropped\n${report}\n`);
});

test('an overlay file that is not an overlay refuses the boot, untouched, naming it', async () => {
  server.child.kill('SIGTERM');
  await once(server.child, 'exit');
  const broken = '{"writes": [{"seq": "one"}]}\n';
  await writeFile(overlayFile, broken);
  const refused = await runToExit(ENV);
  assert.is.not(refused.code, 0);
  assert.match(
    refused.output,
    new RegExp(`cannot open the catalog overlay: ${overlayFile}: not a catalog overlay \\(/writes/0`),
  );
  assert.is(await readFile(overlayFile, 'utf8'), broken);
  server = startServer({ ...ENV, CATALOG_WRITES: 'off' });
  url = await listeningUrl(server);
});

test.run();
