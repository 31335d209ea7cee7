import { request } from 'node:http';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { offlineBrowser, type OfflineBrowser } from './browser.ts';
import { startApp, tempDir, type TestServer } from './http.ts';
import { ROOT, runScript } from './spawn.ts';
import { staticHost, type StaticHost } from './static-host.ts';

/** An answer as compared: status, the API headers (lower-case names) and the body text. */
export interface Seen {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A request to compare: a path under the API (base left out) and request headers. */
export interface Asked {
  path: string;
  headers?: Record<string, string>;
  method?: string;
}

/** The headers a client of the API reads, compared between the server and the worker. */
export const API_HEADERS = [
  'content-type',
  'content-length',
  'cache-control',
  'etag',
  'content-language',
  'link',
  'allow',
  'x-pagination-page-index',
  'x-pagination-page-size',
  'x-pagination-page-total',
  'x-pagination-item-total',
];

const pick = (headers: Iterable<[string, string]>): Record<string, string> =>
  Object.fromEntries([...headers].filter(([name]) => API_HEADERS.includes(name.toLowerCase())));

/** A site exported by `npm run export-site`, served by a static host, the compiled server on the same data, and a browser on the site. */
export interface SiteUnderTest {
  dir: string;
  base: string;
  host: StaticHost;
  /** The site's URL, base included, without a trailing slash (the server's PUBLIC_URL). */
  url: string;
  server: TestServer;
  browser: OfflineBrowser;
  page: Page;
  exportOutput: string;
  close(): Promise<void>;
}

/**
 * Exports `DATA_DIR` (the embedded catalog unless given) under `base` with the project's
 * script, serves it from a static host, starts the compiled server on the same data with the
 * site's URL as its public one, and opens the site's home page in an offline Chromium.
 */
export async function siteUnderTest(base = '/', env: Record<string, string> = {}): Promise<SiteUnderTest> {
  const dir = await tempDir();
  const host = await staticHost(dir);
  const url = `${host.url}${base}`.replace(/\/$/, '');
  const exported = await runScript('scripts/export-site.ts', ['--out', join(dir, base), '--base', base, '--url', url], {
    DATA_DIR: join(ROOT, 'data'),
    ACCOUNTS_FILE: join(await tempDir(), 'accounts.json'),
    ...env,
  });
  if (exported.code !== 0) throw new Error(`export-site failed: ${exported.stderr}${exported.stdout}`);
  const server = await startApp({ PUBLIC_URL: url, ...env });
  const browser = await offlineBrowser(await tempDir());
  await browser.page.goto(`${url}/`);
  await browser.page.evaluate(() => (globalThis as unknown as { siteReady: Promise<void> }).siteReady);
  return {
    dir,
    base,
    host,
    url,
    server,
    browser,
    page: browser.page,
    exportOutput: exported.stdout + exported.stderr,
    close: async () => {
      await browser.context.close();
      await host.close();
      await server.close();
    },
  };
}

/** The server's answer, by a raw request (no `Accept-Encoding`: the identity variant, as the worker's). */
export function serverAnswer(server: TestServer, asked: Asked): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.url}${asked.path}`,
      { method: asked.method ?? 'GET', headers: asked.headers ?? {} },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: pick(Object.entries(res.headers).map(([k, v]) => [k, String(v)])),
            body,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The answers the page gets through the worker, asked one after another, the base before each path. */
export function workerAnswers(page: Page, base: string, asked: readonly Asked[]): Promise<Seen[]> {
  return page.evaluate(
    async ({ base, asked, names }) => {
      const seen = [];
      for (const { path, headers, method } of asked) {
        const response = await fetch(base.replace(/\/$/, '') + path, {
          headers: headers ?? {},
          method: method ?? 'GET',
        });
        const picked = [...response.headers].filter(([name]) => names.includes(name));
        seen.push({ status: response.status, headers: Object.fromEntries(picked), body: await response.text() });
      }
      return seen;
    },
    { base, asked, names: API_HEADERS },
  );
}

/** `seen` with what differs between any two answers of the same request left out: an error's time, and the site's base in `Link`. */
export function comparable(seen: Seen, base: string): Seen {
  const headers = { ...seen.headers };
  if (headers.link && base !== '/') headers.link = headers.link.replaceAll(`<${base.replace(/\/$/, '')}/`, '</');
  let body = seen.body;
  if (seen.status >= 400) body = body.replace(/"timestamps":"[^"]*"/, '"timestamps":"…"');
  return { status: seen.status, headers, body };
}
