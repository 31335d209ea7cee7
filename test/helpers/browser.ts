import { existsSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { CHROMIUM, launchChromium } from '../../scripts/lib/chromium.ts';
import * as assert from 'uvu/assert';

/** A headless browser cut off from everything but this machine, and what its page did. */
export interface OfflineBrowser {
  context: BrowserContext;
  page: Page;
  /** Every URL the page requested. */
  requested: string[];
  /** Requests that tried to leave this machine (all refused). */
  blocked: string[];
  /** Page errors, console errors (a Content-Security-Policy violation is one) and answers of 400 or more. */
  problems: string[];
}

const isLoopback = (url: URL) => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

/**
 * Starts headless Chromium with a profile in `dir` and every request off this machine
 * refused, as in a classroom without internet.
 *
 * @example
 * const browser = await offlineBrowser(await tempDir());
 * await browser.page.goto(`${server.url}/api/docs`);
 */
export async function offlineBrowser(dir: string): Promise<OfflineBrowser> {
  assert.ok(
    existsSync(CHROMIUM),
    `${CHROMIUM} is missing: apt-get install chromium chromium-driver (.ci/run does), or set CHROMIUM_PATH`,
  );
  const context = await launchChromium(dir);
  const requested: string[] = [];
  const blocked: string[] = [];
  const problems: string[] = [];
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (isLoopback(url)) return route.continue();
    blocked.push(url.href);
    return route.abort('blockedbyclient');
  });
  context.on('request', (request) => requested.push(request.url()));
  context.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()} ${response.url()}`);
  });
  context.setDefaultTimeout(15_000);
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  return { context, page, requested, blocked, problems };
}

/**
 * Opens, in a tab of its own, the icon `page` links, or `/favicon.ico` where it links none
 * (where a person's browser looks then): headless Chromium fetches no icon by itself, so a
 * missing one shows only this way.
 *
 * @example
 * await pageIcon(browser.page); // { url: 'http://127.0.0.1:…/api/docs/favicon.svg', status: 200, type: 'image/svg+xml' }
 */
export async function pageIcon(page: Page): Promise<{ url: string; status: number; type: string | undefined }> {
  const links = page.locator('link[rel~="icon"]');
  const href = (await links.count()) ? await links.first().getAttribute('href') : null;
  const url = new URL(href ?? '/favicon.ico', page.url()).href;
  const tab = await page.context().newPage();
  try {
    const response = await tab.goto(url);
    assert.ok(response, `no answer for ${url}`);
    return { url, status: response.status(), type: response.headers()['content-type'] };
  } finally {
    await tab.close();
  }
}
