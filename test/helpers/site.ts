import { request } from 'node:http';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { offlineBrowser, type OfflineBrowser } from './browser.ts';
import { startApp, tempDir, type TestServer } from './http.ts';
import { ROOT, runScript } from './spawn.ts';
import { staticHost, type StaticHost } from '../../scripts/lib/static-host.ts';

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
  body?: string;
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
    req.end(asked.body);
  });
}

/** The answers the page gets through the worker, asked one after another, the base before each path. */
export function workerAnswers(page: Page, base: string, asked: readonly Asked[]): Promise<Seen[]> {
  return page.evaluate(
    async ({ base, asked, names }) => {
      const seen = [];
      for (const { path, headers, method, body } of asked) {
        const init = { headers: headers ?? {}, method: method ?? 'GET', ...(body === undefined ? {} : { body }) };
        const response = await fetch(base.replace(/\/$/, '') + path, init);
        const picked = [...response.headers].filter(([name]) => names.includes(name));
        // Decoded keeping a byte order mark (a CSV answer's), which response.text() would drop.
        const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer());
        seen.push({ status: response.status, headers: Object.fromEntries(picked), body: text });
      }
      return seen;
    },
    { base, asked, names: API_HEADERS },
  );
}

/** `seen` with what differs between any two answers of the same request left out: an error's time, the data version, and the site's base in `Link` and in an error's `url` and message. */
export function comparable(seen: Seen, base: string): Seen {
  const headers = { ...seen.headers };
  if (headers.link && base !== '/') {
    headers.link = headers.link.replaceAll(`<${base.replace(/\/$/, '')}/`, '</');
    // A list's ETag names its headers, `Link` with the base included.
    delete headers.etag;
  }
  let body = seen.body;
  // The data version differs by design (a site names the data it was exported from, the server its
  // change feed's cursor): left out with what it changes, the body's length and ETag.
  const versionless = body.replace(/"(data_version|catalog_version)":"[^"]*"/g, '"$1":"…"');
  if (versionless !== body) {
    body = versionless;
    delete headers.etag;
    delete headers['content-length'];
  }
  if (seen.status >= 400) body = body.replace(/"timestamps":"[^"]*"/, '"timestamps":"…"');
  // An error names the path asked, which on the site starts with its base.
  if (seen.status >= 400 && base !== '/') {
    const parts = body.split(`${base}api`);
    body = parts.join('/api');
    headers['content-length'] = String(Number(headers['content-length']) - (parts.length - 1) * (base.length - 1));
  }
  return { status: seen.status, headers, body };
}

/** Differences between the worker's and the server's answers to `asked`, random picks compared by membership. */
export async function differences(site: SiteUnderTest, asked: readonly Asked[]): Promise<string[]> {
  const found: string[] = [];
  for (let from = 0; from < asked.length; from += 50) {
    const batch = asked.slice(from, from + 50);
    const worker = await workerAnswers(site.page, site.base, batch);
    for (const [i, one] of batch.entries()) {
      const theirs = comparable(worker[i]!, site.base);
      let ours = comparable(await serverAnswer(site.server, one), site.base);
      const random = /\/random(?:$|\?)/.test(one.path);
      if (random && theirs.status === 200) {
        // The worker's pick, asked of the server by its own address: the same record, translation or social.
        const picked = JSON.parse(theirs.body) as { uuid?: string; language?: string; social?: string };
        const [path, query] = one.path.split('?');
        const at = picked.social
          ? picked.social.toLowerCase()
          : path!.includes('translations')
            ? picked.language
            : picked.uuid;
        const byId = path!.replace(/random$/, encodeURIComponent(String(at)));
        const server = comparable(
          await serverAnswer(site.server, { ...one, path: query ? `${byId}?${query}` : byId }),
          '/',
        );
        ours = { ...server, headers: { ...server.headers, 'cache-control': 'no-store' } };
        delete ours.headers.etag;
      }
      const shown = `${one.path.slice(0, 160)}${one.headers ? ` ${JSON.stringify(one.headers)}` : ''}`;
      if (theirs.status !== ours.status) found.push(`${shown}: worker ${theirs.status}, server ${ours.status}`);
      else if (theirs.body !== ours.body)
        found.push(
          `${shown}: bodies differ\n  worker ${theirs.body.slice(0, 300)}\n  server ${ours.body.slice(0, 300)}`,
        );
      else if (JSON.stringify(theirs.headers) !== JSON.stringify(sorted(ours.headers, theirs.headers)))
        found.push(
          `${shown}: headers differ\n  worker ${JSON.stringify(theirs.headers)}\n  server ${JSON.stringify(ours.headers)}`,
        );
    }
  }
  return found;
}

/** `headers` in the order of `like` (then the rest), so that the comparison is of names and values only. */
function sorted(headers: Record<string, string>, like: Record<string, string>): Record<string, string> {
  const names = [...Object.keys(like).filter((n) => n in headers), ...Object.keys(headers).filter((n) => !(n in like))];
  return Object.fromEntries(names.map((n) => [n, headers[n]!]));
}
