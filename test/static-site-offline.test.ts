import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { offlineBrowser } from './helpers/browser.ts';
import { tempDir } from './helpers/http.ts';
import { serverAnswer, siteUnderTest } from './helpers/site.ts';

// The moments a Service Worker does not control its page: the first visit, a hard reload, an API URL opened before
// any visit; and the site with its host gone.
const site = await siteUnderTest('/');
const LIST = '/api/v1/actors?size=2&sort=first_name,desc';
const expected = await serverAnswer(site.server, { path: LIST });

test.after(() => site.close());

interface InPage {
  navigator: { serviceWorker: { controller: unknown } };
}

test('first visit: a request sent before the worker controls the page is answered by the engine', async () => {
  const browser = await offlineBrowser(await tempDir());
  try {
    await browser.page.goto(`${site.url}/api/docs/`);
    const seen = await browser.page.evaluate(async (path) => {
      const controlled = Boolean((globalThis as unknown as InPage).navigator.serviceWorker.controller);
      const response = await fetch(path);
      return { controlled, status: response.status, body: await response.text() };
    }, LIST);
    assert.is(seen.status, 200, `controlled when sent: ${seen.controlled}`);
    assert.is(seen.body, expected.body);
    assert.not.ok(site.host.asked.includes(LIST), 'the host was never asked for the list');
  } finally {
    await browser.context.close();
  }
});

test('hard reload: the page is not controlled, and its first request is still answered by the engine', async () => {
  const { page } = site;
  // Read before the page's own scripts run (the site's script asks the worker to claim the page at once).
  await page.addInitScript('globalThis.controlledAtStart = Boolean(navigator.serviceWorker.controller)');
  const cdp = await page.context().newCDPSession(page);
  const loaded = page.waitForEvent('load');
  await cdp.send('Page.reload', { ignoreCache: true });
  await loaded;
  const seen = await page.evaluate(async (path) => {
    const controlled = (globalThis as unknown as { controlledAtStart: boolean }).controlledAtStart;
    const response = await fetch(path);
    return { controlled, status: response.status, body: await response.text() };
  }, LIST);
  assert.is(seen.controlled, false, 'a hard reload starts the page without the worker');
  assert.is(seen.status, 200);
  assert.is(seen.body, expected.body);
  assert.not.ok(site.host.asked.includes(LIST));
});

test('after a visit, an API URL opened in the address bar is answered by the worker', async () => {
  const response = await site.page.goto(`${site.url}${LIST}`);
  assert.ok(response!.fromServiceWorker());
  assert.is(response!.status(), 200);
  assert.is(await response!.text(), expected.body);
});

test('an API URL opened before any visit: the host has no file, its 404 page installs the worker and reloads', async () => {
  const browser = await offlineBrowser(await tempDir());
  try {
    await browser.page.goto(`${site.url}${LIST}`);
    await browser.page.waitForFunction('document.body.innerText.startsWith("[")', undefined, { timeout: 15_000 });
    assert.is(JSON.stringify(JSON.parse(await browser.page.innerText('body'))), expected.body);
  } finally {
    await browser.context.close();
  }
});

test('offline: with the host gone, the pages and the read API still answer after the first load', async () => {
  await site.page.goto(`${site.url}/`);
  await site.page.evaluate('siteOffline');
  await site.host.close();
  await site.page.reload();
  const seen = await site.page.evaluate(async (path) => {
    const list = await fetch(path);
    const docs = await fetch('/api/openapi.json');
    return { status: list.status, body: await list.text(), docs: docs.status };
  }, LIST);
  assert.is(seen.status, 200);
  assert.is(seen.body, expected.body);
  assert.is(seen.docs, 200);
  const navigation = await site.page.goto(`${site.url}${LIST}`);
  assert.is(await navigation!.text(), expected.body);
});

test.run();
