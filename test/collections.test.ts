import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp } from './helpers/compiled-server.ts';
import {
  brunoOutcomes,
  httpyacOutcomes,
  newmanOutcomes,
  operationNames,
  requestNames,
  runTool,
  type Outcome,
} from './helpers/collection-runs.ts';
import { tempDir, type TestServer } from './helpers/http.ts';
import { rawGet } from './helpers/raw-get.ts';
import { runScript, ROOT } from './helpers/spawn.ts';
import { planCollection } from '../src/docs/collections/plan-collection.ts';
import { COLLECTION_FORMATS } from '../src/docs/collections/formats.ts';
import type { JsonObject } from '../src/docs/collections/sketch.ts';

// The collections /api/collections/ serves, downloaded from a server started as `npm start`
// starts it (rate limits on, as by default) and run by newman, bru and httpyac as a user runs
// them: every request must pass the tests the collection gives it, as the account it signs up
// (writes 403) and, for the sign-in and the maintainer's write, as a MAINTAINER made with
// `npm run accounts` (201, 200, 204).

const CURATOR = { username: 'curator', password: 'curator passphrase' };
const CURATOR_WRITES = { curatorCreate: 201, curatorPatch: 200, curatorDelete: 204 };

/** A server whose accounts hold a MAINTAINER, made by `npm run accounts` before it starts. */
async function serverWithCurator(): Promise<TestServer> {
  const dir = await tempDir();
  const { code, stderr } = await runScript(
    join(ROOT, 'scripts', 'accounts.ts'),
    ['create', '--username', CURATOR.username, '--email', 'curator@example.org', '--role', 'MAINTAINER'],
    { ACCOUNTS_FILE: join(dir, 'accounts.json'), ACCOUNT_PASSWORD: CURATOR.password, SCRYPT_N: '1024' },
  );
  assert.is(code, 0, stderr);
  return startApp({ RATE_LIMIT: 'on' }, dir);
}

/** Downloads a collection into `dir` as `curl -O` would, and returns its text. */
async function download(app: TestServer, name: string, dir: string): Promise<string> {
  const response = await app.get(`/api/collections/${name}`);
  assert.is(response.status, 200);
  assert.is(response.headers.get('content-disposition'), `attachment; filename="${name}"`);
  const text = await response.text();
  await writeFile(join(dir, name), text);
  return text;
}

/** Every request ran, in the collection's order, each with at least one test and none failed. */
function assertPassed(tool: string, outcomes: Outcome[], names: string[], output: string): void {
  assert.equal(
    outcomes.map((o) => o.name),
    names,
    `${tool} ran other requests than the collection's:\n${output.slice(-1500)}`,
  );
  for (const outcome of outcomes) {
    assert.ok(outcome.tests > 0, `${tool}: ${outcome.name} ran no test`);
    assert.equal(outcome.failed, [], `${tool}: ${outcome.name} (status ${outcome.status}) failed its tests`);
  }
}

/** The maintainer's run: the sign-in (a 409 for the existing account, then 200) and the write's 201, 200, 204. */
function assertCuratorWrote(tool: string, outcomes: Outcome[]): void {
  const statuses = Object.fromEntries(outcomes.map((o) => [o.name, o.status]));
  assert.equal(statuses, { register: 409, authenticate: 200, ...CURATOR_WRITES }, tool);
  for (const outcome of outcomes) assert.equal(outcome.failed, [], `${tool} as a MAINTAINER: ${outcome.name}`);
}

/** The maintainer's variables, for each tool's flag. */
const CREDENTIALS = [`username=${CURATOR.username}`, `password=${CURATOR.password}`];
const credentials = (flag: string) => CREDENTIALS.flatMap((pair) => [flag, pair]);

test('newman runs the Postman collection: every request passes its tests, a MAINTAINER writes', async () => {
  const app = await serverWithCurator();
  try {
    const dir = await tempDir();
    const names = requestNames.postman(JSON.parse(await download(app, 'postman.json', dir)));
    const report = join(dir, 'report.json');
    const all = await runTool('newman', ['run', 'postman.json', '-r', 'json', '--reporter-json-export', report], dir);
    assertPassed('newman', newmanOutcomes(JSON.parse(await readFile(report, 'utf8'))), names, all.output);
    assert.is(all.code, 0, all.output);
    const folders = ['--folder', 'Sign in', '--folder', 'Maintainer write'];
    const args = ['run', 'postman.json', ...folders, ...credentials('--env-var')];
    const curator = await runTool('newman', [...args, '-r', 'json', '--reporter-json-export', report], dir);
    assertCuratorWrote('newman', newmanOutcomes(JSON.parse(await readFile(report, 'utf8'))));
    assert.is(curator.code, 0, curator.output);
  } finally {
    await app.close();
  }
});

test('bru runs the Bruno collection (written as its folder): every request passes, a MAINTAINER writes', async () => {
  const app = await serverWithCurator();
  try {
    const dir = await tempDir();
    const collection = JSON.parse(await download(app, 'bruno.json', dir)) as JsonObject;
    // What the Bruno app checks an imported collection with.
    const { collectionSchema } = (await import('@usebruno/schema' as string)) as {
      collectionSchema: { validate: (value: unknown) => Promise<unknown> };
    };
    await collectionSchema.validate(collection);
    const folder = join(dir, 'catalog-bruno');
    const written = await runScript(join(ROOT, 'scripts', 'bruno-folder.ts'), [join(dir, 'bruno.json'), folder], {});
    assert.is(written.code, 0, written.stderr);
    const report = join(dir, 'report.json');
    const all = await runTool('bru', ['run', '-r', '--reporter-json', report], folder);
    const names = requestNames.bruno(collection as never);
    assertPassed('bru', brunoOutcomes(JSON.parse(await readFile(report, 'utf8'))), names, all.output);
    assert.is(all.code, 0, all.output);
    const args = ['run', 'Sign in', 'Maintainer write', ...credentials('--env-var'), '--reporter-json', report];
    const curator = await runTool('bru', args, folder);
    assertCuratorWrote('bru', brunoOutcomes(JSON.parse(await readFile(report, 'utf8'))));
    assert.is(curator.code, 0, curator.output);
  } finally {
    await app.close();
  }
});

test('httpyac sends the .http file: every request passes its tests, a MAINTAINER writes', async () => {
  const app = await serverWithCurator();
  try {
    const dir = await tempDir();
    const names = requestNames.http(await download(app, 'catalog.http', dir));
    const all = await runTool('httpyac', ['send', 'catalog.http', '--all', '--json'], dir);
    assertPassed('httpyac', httpyacOutcomes(JSON.parse(all.stdout)), names, all.output);
    assert.is(all.code, 0, all.output);
    const curator = await runTool(
      'httpyac',
      ['send', 'catalog.http', '--tag', 'maintainer', '--json', '--var', ...CREDENTIALS],
      dir,
    );
    assertCuratorWrote('httpyac', httpyacOutcomes(JSON.parse(curator.stdout)));
    assert.is(curator.code, 0, curator.output);
  } finally {
    await app.close();
  }
});

test('each collection has a request for every operation of the document it was made from', async () => {
  const app = await startApp();
  try {
    const doc = (await (await app.get('/api/openapi.json')).json()) as Parameters<typeof operationNames>[0];
    const operations = operationNames(doc);
    const served = {
      postman: requestNames.postman((await (await app.get('/api/collections/postman.json')).json()) as never),
      bruno: requestNames.bruno((await (await app.get('/api/collections/bruno.json')).json()) as never),
      http: requestNames.http(await (await app.get('/api/collections/catalog.http')).text()),
    };
    for (const [format, names] of Object.entries(served))
      assert.equal(
        operations.filter((name) => !names.includes(name)),
        [],
        `${format} lacks operations of the document`,
      );
    // A document that gains an operation: the collection made from it has its request.
    const grown = structuredClone(doc) as unknown as JsonObject & { paths: Record<string, unknown> };
    grown.paths['/api/v1/extra/{uuid}'] = { get: { operationId: 'getExtra', responses: { 200: {} } } };
    const plan = planCollection(grown);
    assert.ok(plan.requests.some((request) => request.name === 'getExtra'));
    for (const format of Object.values(COLLECTION_FORMATS)) assert.match(format.write(plan), 'getExtra');
  } finally {
    await app.close();
  }
});

test('the collection routes: HEAD, 304, query ignored, unknown names 404 in the error shape', async () => {
  const app = await startApp();
  try {
    for (const name of Object.keys(COLLECTION_FORMATS)) {
      const got = await app.get(`/api/collections/${name}`, { 'Accept-Encoding': 'gzip' });
      const body = await got.text();
      assert.is(got.headers.get('content-type'), COLLECTION_FORMATS[name]!.type);
      assert.ok(body.includes(app.url), `${name} names this server as baseUrl`);
      const etag = got.headers.get('etag')!;
      const head = await fetch(`${app.url}/api/collections/${name}`, { method: 'HEAD' });
      assert.is(head.status, 200);
      assert.is(head.headers.get('etag'), etag);
      assert.is(await head.text(), '');
      // node:http: fetch adds Cache-Control: no-cache to a request with If-None-Match.
      const again = await rawGet(app.url, `/api/collections/${name}`, {
        'Accept-Encoding': 'gzip',
        'If-None-Match': etag,
      });
      assert.is(again.status, 304);
      const queried = await app.get(`/api/collections/${name}?format=other&page=-1`);
      assert.is(queried.status, 200);
      assert.is(await queried.text(), body);
    }
    for (const name of [
      'nope',
      'postman.JSON',
      '..%2Fpackage.json',
      'x'.repeat(2000),
      '%00',
      'toString',
      '__proto__',
    ]) {
      const got = await app.get(`/api/collections/${name}`);
      if (got.status === 414) continue;
      assert.is(got.status, 404, name);
      const error = (await got.json()) as Record<string, unknown>;
      assert.is(error.code, 404);
      assert.is(error.method, 'GET');
      assert.match(String(error.message), /postman\.json, bruno\.json, catalog\.http/);
    }
    const post = await fetch(`${app.url}/api/collections/postman.json`, { method: 'POST' });
    assert.is(post.status, 405);
    assert.is(((await post.json()) as { code: number }).code, 405);
  } finally {
    await app.close();
  }
});

test.run();
