import type { Page } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registered } from './helpers/accounts-app.ts';
import { tokenWithRole } from './helpers/admin.ts';
import { offlineBrowser, type OfflineBrowser } from './helpers/browser.ts';
import { caller } from './helpers/curator-calls.ts';
import { startApp, tempDir } from './helpers/http.ts';

// The teacher's board in headless Chromium cut off from everything but this machine, against the
// compiled server in classroom mode: an ADMIN signs in on it, and a student's write shows.

const server = await startApp({ CLASSROOM: 'on' });
await tokenWithRole(server, 'ADMIN', 'teacher');
const dir = await tempDir();
let browser: OfflineBrowser | undefined;
let page: Page;

const rowOf = (username: string) => page.locator(`tr[data-username="${username}"] td`).allInnerTexts();

async function signIn(username: string, password: string): Promise<void> {
  await page.goto(`${server.url}/classroom`);
  await page.fill('input[name=username]', username);
  await page.fill('input[name=password]', password);
  await page.click('button[type=submit]');
}

// In a test, not in test.before: uvu 0.5 reports a failing before hook as a pass.
test('headless Chromium starts, with every request off this machine blocked', async () => {
  browser = await offlineBrowser(dir);
  page = browser.page;
});

test('an account that is no ADMIN is told so on the sign-in form', async () => {
  await registered(server.url, 'pupil');
  await signIn('user_pupil', 'password of pupil');
  await page.locator('#sign-in-error', { hasText: 'only an ADMIN' }).waitFor();
  assert.ok(await page.isVisible('#sign-in'));
});

test("the ADMIN signs in; a student's write shows on the board within a second, then its reset", async () => {
  await signIn('user_teacher', 'password of teacher');
  await page.locator('body[data-live="true"]').waitFor();
  const student = await registered(server.url, 'ana');
  const made = await caller(server, student)('POST', '/api/v1/locations', { name: 'Ana’s cove' });
  assert.is(made.status, 201, JSON.stringify(made.body));
  const answered = Date.now();
  const cell = (n: number, text: RegExp) =>
    page.locator(`tr[data-username="user_ana"] td:nth-child(${n})`, { hasText: text });
  await cell(2, /^1$/).waitFor({ timeout: 1000 });
  const shownAfter = Date.now() - answered;
  const [name, writes, lastWrite, lastReset] = await rowOf('user_ana');
  assert.equal([name, writes, lastReset], ['user_ana', '1', '—'], `shown ${shownAfter} ms after the write's answer`);
  assert.ok(lastWrite && lastWrite !== '—');
  const bars = await page.$$eval('#chart rect', (rects) => rects.map((rect) => Number(rect.getAttribute('height'))));
  assert.is(bars.length, 30);
  assert.ok(bars.at(-1)! > 0, 'the current minute has the write');

  assert.is((await caller(server, student)('DELETE', '/api/v1/sandbox')).status, 204);
  await cell(2, /^0$/).waitFor({ timeout: 1000 });
  assert.is.not((await rowOf('user_ana'))[3], '—', 'the last reset is shown');
  assert.is((await rowOf('user_ana'))[1], '0');
  // The board read the class as the API gives it to the ADMIN: nothing of what Ana wrote.
  const page2 = await page.content();
  assert.not.match(page2, 'Ana’s cove');
});

test('the page loaded nothing from elsewhere and met no error', () => {
  assert.equal(browser!.blocked, []);
  // But the 403 the pupil's sign-in got, shown on the form (its answer and its console line).
  assert.equal(
    browser!.problems.filter((problem) => !problem.includes('403')),
    [],
  );
  assert.is(browser!.problems.length, 2, browser!.problems.join('\n'));
  assert.ok(browser!.requested.some((url) => url.endsWith('/classroom/board.js')));
});

test.after(async () => {
  await browser?.context.close();
  await server.close();
});
test.run();
