import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { json, startApp } from './helpers/http.ts';
import { ROOT } from './helpers/spawn.ts';

// The compiled server finds the project's package.json, not dist/'s `{ "type": "commonjs" }`.

const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  license: string;
  description: string;
};
const server = await startApp();

test('/api reports the version and license of package.json', async () => {
  const info = await json<Record<string, string>>(await server.get('/api'));
  assert.is(info.version, pkg.version);
  assert.is(info.license, pkg.license);
  assert.is(info.license_url, `https://spdx.org/licenses/${pkg.license}.html`);
});

test("the OpenAPI document's info carries the version, and its description starts with package.json's", async () => {
  const doc = await json<{ info: { version: string; description: string } }>(await server.get('/api/openapi.json'));
  assert.is(doc.info.version, pkg.version);
  assert.ok(doc.info.description.startsWith(pkg.description), doc.info.description.slice(0, 80));
  assert.not.match(doc.info.description, /undefined/);
});

test('the reference page does not say "undefined"', async () => {
  for (const path of ['/api/docs', '/api/graphql']) {
    const page = await (await server.get(path, { Accept: 'text/html' })).text();
    assert.not.match(page, /undefined/, path);
  }
});

test.after(() => server.close());
test.run();
