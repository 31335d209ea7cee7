import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PAGE_CSP } from '../src/http/static-page.ts';
import { offlineBrowser, type OfflineBrowser } from './helpers/browser.ts';
import { dataFile, startApp, tempDir } from './helpers/http.ts';

// GraphiQL is bundled by the build (dist/graphiql/), which `npm test` runs first; the server from the sources finds it there.
const server = await startApp();
const origin = new URL(server.url).origin;
const dir = await tempDir();
let browser: OfflineBrowser | undefined;

test.after(async () => {
  await browser?.context.close();
  await server.close();
});

test('a browser opening /api/graphql gets GraphiQL under the reference page\'s policy; a client gets GraphQL', async () => {
  const html = await server.get('/api/graphql', { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
  assert.is(html.status, 200);
  assert.match(html.headers.get('content-type')!, /^text\/html/);
  assert.is(html.headers.get('content-security-policy'), PAGE_CSP);
  assert.match(await html.text(), /\/api\/graphql\/graphiql\.js/);
  const json = await server.get('/api/graphql', { accept: 'application/json' });
  assert.is(json.status, 400, 'a client without a query is told so, in GraphQL');
  assert.ok(((await json.json()) as { errors: unknown[] }).errors.length > 0);
});

test('GraphiQL loads offline, opens with example queries naming real records, and runs one', async () => {
  browser = await offlineBrowser(dir);
  const { page } = browser;
  await page.goto(`${server.url}/api/graphql`);
  await page.locator('.graphiql-container').waitFor();
  // The examples name records of this catalog: the first episode's uuid is in one of the tabs.
  const [episode] = await dataFile('episodes.json');
  const tabs = page.locator('.graphiql-tab');
  assert.ok((await tabs.count()) >= 3, `tabs: ${await tabs.count()}`);
  await tabs.nth(1).click();
  await page.locator('.graphiql-query-editor', { hasText: String(episode!.uuid) }).waitFor();
  await page.locator('.graphiql-execute-button').click();
  const result = page.locator('.result-window', { hasText: '"season"' });
  await result.waitFor();
  assert.match(await result.innerText(), /"data"/);
  await page.screenshot({ path: join(dir, 'graphiql.png') });
  console.log(`  GraphiQL screenshot in ${dir}`);
});

test('nothing was fetched from outside the service, and the page reported no error', () => {
  const { blocked, requested, problems } = browser!;
  assert.equal(blocked, []);
  assert.ok(requested.some((url) => url.endsWith('/api/graphql/graphiql.js')), requested.join('\n'));
  const elsewhere = requested.filter((url) => !/^(data|blob):/.test(url) && new URL(url).origin !== origin);
  assert.equal(elsewhere, []);
  assert.equal(problems, []);
});

test.run();
