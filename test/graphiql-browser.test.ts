import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PAGE_CSP } from '../src/http/static-page.ts';
import { offlineBrowser, pageIcon, type OfflineBrowser } from './helpers/browser.ts';
import { dataFile, startApp, tempDir } from './helpers/http.ts';

// GraphiQL is bundled by the build (dist/graphiql/), which `npm test` runs first; the server from the sources finds it there.
// Rate limits on, as deployed: the page and its files must count in no budget, its queries in the anonymous one.
const server = await startApp({ RATE_LIMIT: 'on' });
const origin = new URL(server.url).origin;
const dir = await tempDir();
const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
let browser: OfflineBrowser | undefined;

test.after(async () => {
  await browser?.context.close();
  await server.close();
});

/** What `openTab` reads in the page (the tests are type-checked without the DOM's types): CodeMirror 5's editor of the element. */
interface InBrowser {
  document: { querySelector(selector: string): { CodeMirror: { operationName?: string } } | null };
}

/**
 * Opens the `index`th tab and waits until GraphiQL runs its operation: it reads the operation's
 * name from the editor 100 ms after the text changes, and until then Run sends the last tab's.
 */
async function openTab(page: Page, index: number): Promise<string> {
  await page.locator('.graphiql-tab').nth(index).click();
  const name = (await page.locator('.graphiql-tab').allInnerTexts())[index]!;
  await page.waitForFunction((expected) => {
    const { document } = globalThis as unknown as InBrowser;
    return document.querySelector('.graphiql-query-editor .CodeMirror')?.CodeMirror.operationName === expected;
  }, name);
  return name;
}

/**
 * What the query editor of the open tab shows: its text, and the lines that are not wholly
 * inside the editor's visible box (cut at the bottom or the right).
 */
async function queryEditor(page: Page): Promise<{ text: string; hidden: string[] }> {
  const editor = page.locator('.graphiql-query-editor .CodeMirror');
  const box = (await editor.boundingBox())!;
  const lines = editor.locator('.CodeMirror-line');
  const texts: string[] = [];
  const hidden: string[] = [];
  for (let i = 0; i < (await lines.count()); i++) {
    const text = (await lines.nth(i).innerText()).replace(/\u200b/g, '');
    const line = (await lines.nth(i).locator('> span').boundingBox())!;
    texts.push(text);
    if (line.y + line.height > box.y + box.height || line.x + line.width > box.x + box.width) hidden.push(text);
  }
  return { text: texts.join('\n').trim(), hidden };
}

test("a browser opening /api/graphql gets GraphiQL under the reference page's policy; a client gets GraphQL", async () => {
  const html = await server.get('/api/graphql', HTML);
  assert.is(html.status, 200);
  assert.match(html.headers.get('content-type')!, /^text\/html/);
  assert.is(html.headers.get('content-security-policy'), PAGE_CSP);
  assert.match(await html.text(), /\/api\/graphql\/graphiql\.js/);
  const json = await server.get('/api/graphql', { accept: 'application/json' });
  assert.is(json.status, 400, 'a client without a query is told so, in GraphQL');
  assert.ok(((await json.json()) as { errors: unknown[] }).errors.length > 0);
});

test('GraphiQL fills the window; its tabs are named by their queries, each shown whole', async () => {
  browser = await offlineBrowser(dir);
  const { page } = browser;
  await page.goto(`${server.url}/api/graphql`);
  await page.locator('.graphiql-container').waitFor();
  const window = page.viewportSize()!;
  assert.equal(window, { width: 1280, height: 900 });
  const container = (await page.locator('.graphiql-container').boundingBox())!;
  assert.ok(
    container.height >= window.height - 2,
    `GraphiQL is ${container.height} px high in a ${window.height} px window`,
  );
  const editors = (await page.locator('.graphiql-editors').boundingBox())!;
  assert.ok(
    editors.height >= window.height * 0.85,
    `the editors are ${editors.height} px high in a ${window.height} px window`,
  );
  const tabs = page.locator('.graphiql-tab');
  assert.equal(await tabs.allInnerTexts(), ['LongestEpisodes', 'EpisodeAndSeason', 'ActorInPortuguese', 'NewLocation']);
  for (let i = 0; i < 4; i++) {
    const name = await openTab(page, i);
    const { text, hidden } = await queryEditor(page);
    assert.match(
      text,
      /^# .+\n(# .+\n)*(query|mutation) \w+ \{\n[^]+\n\}$/,
      `tab ${name} shows ${JSON.stringify(text)}`,
    );
    assert.equal(hidden, [], `tab ${name}: lines cut off`);
  }
  await openTab(page, 0);
  await page.screenshot({ path: join(dir, 'graphiql-window.png') });
});

test('GraphiQL opens with example queries naming real records, and runs one', async () => {
  const { page } = browser!;
  // The examples name records of this catalog: the first episode's uuid is in one of the tabs.
  const [episode] = await dataFile('episodes.json');
  await openTab(page, 1);
  await page.locator('.graphiql-query-editor', { hasText: String(episode!.uuid) }).waitFor();
  await page.locator('.graphiql-execute-button').click();
  const result = page.locator('.result-window', { hasText: '"season"' });
  await result.waitFor();
  assert.match(await result.innerText(), /"data"/);
  await page.screenshot({ path: join(dir, 'graphiql.png') });
  console.log(`  GraphiQL screenshots in ${dir}`);
});

test("the page shows the service's own icon", async () => {
  const icon = await pageIcon(browser!.page);
  assert.is(icon.url, `${origin}/api/docs/favicon.svg`);
  assert.is(icon.status, 200);
  assert.is(icon.type, 'image/svg+xml');
});

test('nothing was fetched from outside the service, and the page reported no error', () => {
  const { blocked, requested, problems } = browser!;
  assert.equal(blocked, []);
  assert.ok(
    requested.some((url) => url.endsWith('/api/graphql/graphiql.js')),
    requested.join('\n'),
  );
  const elsewhere = requested.filter((url) => !/^(data|blob):/.test(url) && new URL(url).origin !== origin);
  assert.equal(elsewhere, []);
  assert.equal(problems, []);
});

test('the page and its files count in no rate limit, past the anonymous budget; its queries do count', async () => {
  const { RATE_LIMIT_ANONYMOUS: budget } = server.config;
  const files = [
    ['/api/graphql', HTML],
    ['/api/graphql/graphiql.js'],
    ['/api/graphql/graphiql.css'],
    ['/api/docs/favicon.svg'],
  ] as const;
  for (let load = 0; load <= budget; load++) {
    for (const [path, headers] of files) {
      const answer = await server.get(path, headers);
      await answer.arrayBuffer();
      assert.is(answer.status, 200, `load ${load + 1} of ${path}`);
      assert.is(answer.headers.get('x-rate-limit-remaining'), null, path);
    }
  }
  const query = () =>
    fetch(`${server.url}/api/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query":"{ actors(size: 1) { total_items } }"}',
    });
  const first = Number((await query()).headers.get('x-rate-limit-remaining'));
  const second = Number((await query()).headers.get('x-rate-limit-remaining'));
  assert.ok(first < budget, `remaining ${first} of ${budget}`);
  assert.is(second, first - 1);
  await browser!.page.reload();
  await browser!.page.locator('.graphiql-tab').first().waitFor();
});

test.run();
