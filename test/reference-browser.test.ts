import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FAMILIES } from '../src/catalog/families.ts';
import { familyTag } from '../src/docs/catalog-paths.ts';
import { tokenWithRole } from './helpers/admin.ts';
import { offlineBrowser, pageIcon, type OfflineBrowser } from './helpers/browser.ts';
import { dataFile, json, startApp, tempDir } from './helpers/http.ts';
import type { Json } from './helpers/openapi.ts';

const server = await startApp();
const origin = new URL(server.url).origin;
const dir = await tempDir();
const doc = await json<Json>(await server.get('/api/openapi.json'));

let browser: OfflineBrowser | undefined;
let page: Page;

/** operationIds of every operation under `tag`. */
function operationsOf(tag: string): string[] {
  return Object.values(doc.paths as Json).flatMap((item) =>
    Object.values(item as Json)
      .filter((op) => op.tags?.includes(tag))
      .map((op) => String(op.operationId)),
  );
}

// In a test, not in test.before: uvu 0.5 reports a failing before hook as a pass.
test('headless Chromium starts, with every request off this machine blocked', async () => {
  browser = await offlineBrowser(dir);
  page = browser.page;
});

test.after(async () => {
  await browser?.context.close();
  await server.close();
});

test('GET / in a browser lists every operation at once, linked, while Swagger UI is still loading', async () => {
  // Swagger UI's script is held back until the index has been checked, then let through.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/docs/swagger-ui-bundle.js', async (route) => {
    await held;
    await route.continue();
  });
  const start = Date.now();
  await page.goto(`${server.url}/`, { waitUntil: 'commit' });
  await page.locator('.opblock').first().waitFor();
  const firstOperation = Date.now() - start;
  assert.is(new URL(page.url()).pathname, '/api/docs');
  const index = page.locator('#reference-index');
  await index.locator('h1', { hasText: 'Low Tide Signal: catalog API' }).waitFor();
  const links = await index.locator('a.opblock').evaluateAll((rows) => rows.map((row) => row.getAttribute('href')));
  const expected = doc.tags.flatMap((tag: Json) => operationsOf(tag.name).map((id) => `#/${tag.name}/${id}`));
  assert.equal(links, expected);
  await page.screenshot({ path: join(dir, 'reference-index.png') });
  // An operation clicked in the index is the one Swagger UI opens when it takes over.
  const last = links.at(-1)!;
  await index.locator(`a[href="${last}"]`).click();
  assert.is(new URL(page.url()).hash, last);
  release();
  const [tag, id] = last.slice(2).split('/');
  await page.locator(`#reference #operations-${tag}-${id}.is-open`).waitFor();
  const [shown] = await page.evaluate(() =>
    performance.getEntriesByName('reference-index-shown').map((entry) => Math.round(entry.startTime)),
  );
  console.log(`  first operation visible ${firstOperation} ms after navigation, index frame at ${shown} ms (recorded)`);
  await index.waitFor({ state: 'detached' });
  await page.unroute('**/api/docs/swagger-ui-bundle.js');
});

test('Swagger UI takes over the page: every family and its endpoints, the title from the catalog', async () => {
  const reference = page.locator('#reference');
  // The title names the series of the loaded catalog, from its overview.
  await reference.locator('.info h1.title', { hasText: 'Low Tide Signal: catalog API' }).waitFor();
  await reference.locator('.info .description', { hasText: 'Reading needs no token' }).waitFor();
  await reference.locator('.info .description a[href="/api/graphql"]').waitFor();
  for (const family of FAMILIES.values()) {
    const tag = familyTag(family);
    await page.locator(`#operations-tag-${tag}`).waitFor();
    const operations = operationsOf(tag);
    assert.ok(operations.length >= 3, `${tag}: ${operations.join(', ')}`);
    for (const id of operations) await page.locator(`#operations-${tag}-${id}`).waitFor();
  }
  await page.screenshot({ path: join(dir, 'reference.png') });
  await page.screenshot({ path: join(dir, 'reference-full.png'), fullPage: true });
  assert.ok(existsSync(join(dir, 'reference-full.png')));
  console.log(`  reference page screenshots in ${dir}`);
});

test("the page, reached from /, shows the service's own icon", async () => {
  const icon = await pageIcon(page);
  assert.is(icon.url, `${origin}/api/docs/favicon.svg`);
  assert.is(icon.status, 200);
  assert.is(icon.type, 'image/svg+xml');
});

test('trying a list from the page calls this service and shows its answer', async () => {
  const [first] = await dataFile('actors.json');
  const operation = page.locator('#operations-Actors-listActors');
  await operation.locator('.opblock-summary-control').click();
  await operation.locator('.try-out__btn').click();
  await operation.locator('tr[data-param-name="size"] input').fill('2');
  await operation.locator('.execute').click();
  const answer = operation.locator('.live-responses-table tbody .response-col_status').first();
  await answer.waitFor();
  assert.is((await answer.innerText()).trim(), '200');
  assert.match(await operation.locator('.live-responses-table .microlight').first().innerText(), String(first!.uuid));
  await operation.locator('.live-responses-table').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(dir, 'reference-try-it-out.png') });
});

test('a by-uuid endpoint runs from "Try it out" without typing a uuid, and public reads show no padlock', async () => {
  const [first] = await dataFile('episodes.json');
  const operation = page.locator('#operations-Episodes-getEpisode');
  await operation.locator('.opblock-summary-control').click();
  assert.is(await operation.locator('.authorization__btn').count(), 0, 'no padlock on a public read');
  await operation.locator('.try-out__btn').click();
  assert.is(
    await operation.locator('tr[data-param-name="uuid"] input').inputValue(),
    String(first!.uuid),
    'the uuid comes filled in',
  );
  await operation.locator('.execute').click();
  const answer = operation.locator('.live-responses-table tbody .response-col_status').first();
  await answer.waitFor();
  assert.is((await answer.innerText()).trim(), '200');
  assert.match(await operation.locator('.live-responses-table .microlight').first().innerText(), String(first!.uuid));
});

test('"Try it out" writes with a MAINTAINER token: Authorize, then PATCH an actor from the page', async () => {
  const token = await tokenWithRole(server, 'MAINTAINER', 'browser');
  const [, second] = await dataFile('actors.json');
  await page.locator('.auth-wrapper .authorize').first().click();
  await page.locator('.modal-ux .auth-container input').first().fill(token);
  await page.locator('.modal-ux .auth-btn-wrapper .authorize').click();
  await page.locator('.modal-ux .btn-done').click();
  const operation = page.locator('#operations-Actors-patchActor');
  await operation.locator('.opblock-summary-control').click();
  await operation.locator('.try-out__btn').click();
  await operation.locator('tr[data-param-name="uuid"] input').fill(String(second!.uuid));
  await operation.locator('.body-param__text').fill('{"nationality": "Written From The Reference Page"}');
  await operation.locator('.execute').click();
  const answer = operation.locator('.live-responses-table tbody .response-col_status').first();
  await answer.waitFor();
  assert.is((await answer.innerText()).trim(), '200', await operation.locator('.live-responses-table').innerText());
  const read = await json<Json>(await server.get(`/api/v1/actors/${String(second!.uuid)}`));
  assert.is(read.nationality, 'Written From The Reference Page');
  await operation.locator('.live-responses-table').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(dir, 'reference-try-it-out-write.png') });
});

test("without Swagger UI's script the index stays, saying what is missing", async () => {
  // A browser of its own: the refused script is a problem there, not in the page under test.
  const other = await offlineBrowser(await tempDir());
  try {
    await other.page.route('**/api/docs/swagger-ui-bundle.js', (route) => route.abort());
    await other.page.goto(`${server.url}/api/docs`);
    const note = other.page.locator('#reference-index .reference-index-note');
    await note.filter({ hasText: 'could not be loaded' }).waitFor();
    assert.match(await note.innerText(), '/api/docs/swagger-ui-bundle.js');
    const operations = doc.tags.flatMap((tag: Json) => operationsOf(tag.name));
    assert.is(await other.page.locator('#reference-index a.opblock').count(), operations.length);
  } finally {
    await other.context.close();
  }
});

test('nothing was fetched from outside the service, and the page reported no error', () => {
  const { blocked, requested, problems } = browser!;
  assert.equal(blocked, []);
  assert.ok(
    requested.some((url) => url.endsWith('/api/docs/swagger-ui-bundle.js')),
    requested.join('\n'),
  );
  assert.ok(requested.some((url) => url.endsWith('/api/openapi.json')));
  const elsewhere = requested.filter((url) => !/^(data|blob):/.test(url) && new URL(url).origin !== origin);
  assert.equal(elsewhere, []);
  assert.equal(problems, []);
});

test.run();
