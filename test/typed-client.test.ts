import { execFile, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { get, type IncomingMessage } from 'node:http';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ts from 'typescript';
import {
  CLIENT_MANIFEST,
  clientDocument,
  GENERATED_FILE,
  generatedSource,
  manifestWithVersion,
} from '../scripts/lib/client-source.ts';
import { tokenWithRole } from './helpers/admin.ts';
import { installWithNoRegistry, USER_OPTIONS } from './helpers/client-install.ts';
import { clientTour } from './helpers/client-tour.ts';
import { clientRoutes, repositoryOptions, typeErrors } from './helpers/client-typecheck.ts';
import { waitUntilUp } from './helpers/compiled-server.ts';
import { dataFile, startApp, tempDir, TEST_ENV } from './helpers/http.ts';
import { documentedRoutes } from './helpers/openapi.ts';
import { ROOT } from './helpers/spawn.ts';
import { START_ARGS } from './helpers/start-command.ts';
import { freePort } from '../scripts/bench/ports.ts';

// The typed TypeScript client (clients/typescript/, docs/clients.md): the committed generated
// file is what the generator writes now and has every route; a program using it type-checks
// and runs against the compiled server; misuses do not compile; the tarball the server serves
// installs with no registry and works.

const run = promisify(execFile);
const server = await startApp({}, await tempDir());
// A MAINTAINER account made as `npm run accounts -- create` makes one, signed in once the server sees it.
await tokenWithRole(server, 'MAINTAINER', 'curator');
const maintainer = { username: 'user_curator', password: 'password of curator' };
test.after(() => server.close());

test('the committed client is what `npm run client` writes now, versioned as the server', async () => {
  assert.ok((await readFile(GENERATED_FILE, 'utf8')) === (await generatedSource()), 'run `npm run client`');
  assert.is(await readFile(CLIENT_MANIFEST, 'utf8'), manifestWithVersion(), 'run `npm run client`');
});

test('the client has every route of the document, with every method', async () => {
  const routes = clientRoutes(await readFile(GENERATED_FILE, 'utf8'));
  const documented = documentedRoutes(clientDocument());
  assert.ok(documented.length > 60, `${documented.length} routes`);
  assert.equal(
    documented.filter((route) => !routes.includes(route)),
    [],
    'routes the client lacks: run `npm run client`',
  );
  assert.equal(routes.filter((route) => !documented.includes(route)).sort(), []);
});

const TOUR = join(ROOT, 'test', 'helpers', 'client-tour.ts');
const MISUSE = join(ROOT, 'test', 'helpers', 'client-misuse.ts');

test('a program using the client type-checks, and every misuse is the type error it names', async () => {
  const options = repositoryOptions();
  assert.equal(typeErrors([TOUR, MISUSE], options), [], 'tsc reports an error (or a @ts-expect-error with none)');
  const source = await readFile(MISUSE, 'utf8');
  const lines = source.split('\n');
  const expected = lines.flatMap((line, i) => {
    const code = /\/\/ @ts-expect-error TS(\d+) /.exec(line)?.[1];
    return code ? [{ line: i + 2, code: Number(code) }] : [];
  });
  assert.ok(expected.length >= 6, `${expected.length} misuses`);
  // Without the directives, on the same lines: each statement is an error of the code its comment names.
  const stripped = lines.map((line) => (line.includes('@ts-expect-error') ? '' : line)).join('\n');
  const errors = typeErrors([MISUSE], options, new Map([[MISUSE, stripped]]));
  assert.equal(
    errors.map(({ line, code }) => ({ line, code })),
    expected,
    errors.map((error) => `${error.line}: TS${error.code} ${error.message.slice(0, 200)}`).join('\n'),
  );
});

test('the program runs against the compiled server: every family read, a sign-in, a write', async () => {
  const report = await clientTour(server.url, maintainer);
  const data = async (family: string) => {
    const records = await dataFile(`${family}.json`);
    return { records, uuids: records.map((record) => String(record.uuid)) };
  };
  const actors = await data('actors');
  const expectedActors = actors.records
    .filter((actor) => actor.gender === 1 || actor.gender === 2)
    .map((actor) => String(actor.uuid));
  // A page of the default size, 10, of the actors whose gender is 1 or 2.
  assert.is(report.families.actors!.listed.length, Math.min(10, expectedActors.length));
  for (const uuid of report.families.actors!.listed) assert.ok(expectedActors.includes(uuid), uuid);
  const episodes = await data('episodes');
  for (const uuid of report.families.episodes!.listed)
    assert.ok(Number(episodes.records.find((e) => e.uuid === uuid)!.duration) > 3_000_000, uuid);
  const soundtracks = await data('soundtracks');
  for (const uuid of report.families.soundtracks!.listed)
    assert.is(soundtracks.records.find((s) => s.uuid === uuid)!.duration, 192_000, uuid);
  for (const [family, visit] of Object.entries(report.families)) {
    const { uuids } = await data(family);
    assert.ok(visit.listed.length > 0, `${family}: the filtered list is empty`);
    assert.is(visit.byUuid, visit.listed[0], family);
    assert.ok(uuids.includes(visit.random), `${family}: random ${visit.random}`);
    if (['episodes', 'seasons', 'locations', 'games'].includes(family)) assert.is(visit.translation, 'pt-BR', family);
  }
  assert.is(report.overview.translation, 'pt-BR');
  const rows = report.csv
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r\n/);
  assert.match(rows[0]!, /^uuid,href,first_name,/);
  assert.is(rows.length, 3, report.csv);
  assert.is(report.signedUp, 'BASIC');
  assert.is(report.signedIn, 'BASIC');
  assert.is(report.created.name, 'Old Cannery');
  assert.is(report.readBack.uuid, report.created.uuid);
  assert.is(report.readBack.name, 'Old Cannery');
});

test('GET /api/client.tgz is an npm package with no dependencies, cacheable like the other files', async () => {
  const response = await server.get('/api/client.tgz');
  assert.is(response.status, 200);
  assert.is(response.headers.get('content-type'), 'application/gzip');
  const version = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  assert.is(response.headers.get('content-disposition'), `attachment; filename="series-catalog-client-${version}.tgz"`);
  assert.is(response.headers.get('content-encoding'), null, 'a gzip file is not compressed again');
  const bytes = Buffer.from(await response.arrayBuffer());
  const etag = response.headers.get('etag')!;
  assert.match(etag, /^"[\w-]+"$/);
  // Through node:http: fetch adds `Cache-Control: no-cache` to conditional requests, which forbids a 304.
  const [again] = (await once(
    get(`${server.url}/api/client.tgz`, { headers: { 'If-None-Match': etag } }),
    'response',
  )) as [IncomingMessage];
  again.resume();
  assert.is(again.statusCode, 304);
  const dir = await mkdtemp(join(tmpdir(), 'client-tgz-'));
  await writeFile(join(dir, 'client.tgz'), bytes);
  const entries = execFileSync('tar', ['-tzf', join(dir, 'client.tgz')], { encoding: 'utf8' })
    .trim()
    .split('\n');
  for (const entry of [
    'package/package.json',
    'package/dist/index.js',
    'package/dist/index.d.ts',
    'package/dist/openapi.d.ts',
  ])
    assert.ok(entries.includes(entry), `${entry} in ${entries.join(', ')}`);
  const manifest = JSON.parse(
    execFileSync('tar', ['-xzOf', join(dir, 'client.tgz'), 'package/package.json'], { encoding: 'utf8' }),
  ) as Record<string, unknown>;
  assert.is(manifest.name, 'series-catalog-client');
  assert.is(manifest.version, version);
  assert.is(manifest.dependencies, undefined);
  console.log(
    `\n  client.tgz: ${bytes.length} bytes (${(bytes.length / 1024).toFixed(1)} KB), ${entries.length} files`,
  );
  assert.ok(bytes.length <= 50 * 1024, `${bytes.length} bytes: over the 50 KB target`);
});

test('npm installs it from the server with no registry, and the installed package is typed and works', async () => {
  const dir = await installWithNoRegistry(`${server.url}/api/client.tgz`);
  const installed = JSON.parse(
    await readFile(join(dir, 'node_modules', 'series-catalog-client', 'package.json'), 'utf8'),
  );
  assert.is(installed.name, 'series-catalog-client');
  await writeFile(
    join(dir, 'use.ts'),
    [
      "import { createCatalogClient, type Schema } from 'series-catalog-client';",
      `const catalog = createCatalogClient({ baseUrl: ${JSON.stringify(server.url)} });`,
      "const { data, error } = await catalog.GET('/api/v1/seasons', { params: { query: { season_num: '>=2' } } });",
      'if (error) throw new Error(error.message);',
      "const seasons: (Schema<'Season'> | Schema<'ShapedSeason'>)[] = data;",
      'console.log(JSON.stringify(seasons.map((season) => season.season_num)));',
      '// @ts-expect-error a misspelt filter, from the installed declarations',
      "await catalog.GET('/api/v1/seasons', { params: { query: { seasn_num: '2' } } });",
    ].join('\n'),
  );
  // The installed declarations alone, openapi-fetch's copies included.
  assert.equal(typeErrors([join(dir, 'use.ts')], USER_OPTIONS), []);
  // Run as the JavaScript tsc makes of it.
  const script = ts.transpileModule(await readFile(join(dir, 'use.ts'), 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  await writeFile(join(dir, 'use.mjs'), script);
  const { stdout } = await run(process.execPath, ['use.mjs'], { cwd: dir });
  const seasons = await dataFile('seasons.json');
  assert.equal(
    JSON.parse(stdout),
    seasons.map((s) => s.season_num).filter((n) => Number(n) >= 2),
  );
});

test('a build without the client answers 503 in the error shape, saying how to build it', async () => {
  // The compiled server, copied without dist/client/ into a folder of its own beside the packages.
  const copy = await mkdtemp(join(tmpdir(), 'client-missing-'));
  await cp(join(ROOT, 'dist'), join(copy, 'dist'), { recursive: true });
  await rm(join(copy, 'dist', 'client'), { recursive: true });
  await cp(join(ROOT, 'package.json'), join(copy, 'package.json'));
  await symlink(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
  const port = await freePort();
  const env = { ...process.env, ...TEST_ENV, DATA_DIR: join(ROOT, 'data'), HOST: '127.0.0.1', PORT: String(port) };
  const child = spawn(process.execPath, START_ARGS, {
    cwd: copy,
    env: { ...env, ACCOUNTS_FILE: join(copy, 'a.json') },
  });
  let output = '';
  child.stderr.on('data', (chunk) => (output += chunk));
  try {
    await waitUntilUp(
      `http://127.0.0.1:${port}`,
      () => child.exitCode !== null,
      () => output,
    );
    const response = await fetch(`http://127.0.0.1:${port}/api/client.tgz`);
    assert.is(response.status, 503);
    const body = (await response.json()) as { code: number; status: string; message: string };
    assert.is(body.code, 503);
    assert.is(body.status, 'Service Unavailable');
    assert.match(body.message, /has not been built .*run `npm run build`/);
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
    await rm(copy, { recursive: true, force: true });
  }
});

test.run();
