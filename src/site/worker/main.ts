// The static site's Service Worker (bundled by scripts/build.mjs into the site's sw.js): it
// keeps the site's files for offline use and answers the read API from the catalog it loads
// beside them, with the server's own read routes (`SiteApi`).
import { errorJson } from '../../lib/error-json.ts';
import { wantsGraphiQL } from '../../graphql/wants-graphiql.ts';
import { MANIFEST_PATH, type SiteManifest } from '../manifest.ts';
import { SiteApi } from './answer.ts';
import type { SiteAnswer, SiteRequest } from './types.ts';
import { SiteCatalog } from './site-catalog.ts';

declare const self: ServiceWorkerGlobalScope;

/** The site's base path (`/` or `/<repo>/`): the worker's scope. */
const base = new URL(self.registration.scope).pathname;
const origin = new URL(self.registration.scope).href.replace(/\/$/, '');
/** One cache per site: a new export replaces its files at the next install. */
const CACHE = `catalog-site ${base}`;

/**
 * A file of the site by its path under the base: from the worker's cache, else the network (and then kept, if `keep`).
 */
async function siteFile(path: string, keep = false): Promise<Response> {
  const url = base + path;
  const kept = await caches.match(url, { ignoreSearch: true });
  if (kept) return kept;
  const response = await fetch(url);
  if (!response.ok) throw new Error(`the site's file ${url} answered ${response.status}`);
  if (keep) await (await caches.open(CACHE)).put(url, response.clone());
  return response;
}

let api: Promise<{ api: SiteApi; manifest: SiteManifest }> | undefined;
/**
 * The engine, made on the first API request after the worker (re)starts: the manifest now, each family when a request
 * needs it.
 */
function engine(): Promise<{ api: SiteApi; manifest: SiteManifest }> {
  api ??= siteFile(MANIFEST_PATH)
    .then((response) => response.json() as Promise<SiteManifest>)
    .then((manifest) => {
      const catalog = new SiteCatalog(manifest, async (path) => (await siteFile(path, true)).json());
      return { api: new SiteApi(catalog, manifest, base, origin), manifest };
    });
  api.catch(() => (api = undefined));
  return api;
}

// Installed with the manifest alone: a page's first request waits only for the family it reads.
self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      await (await caches.open(CACHE)).add(new Request(base + MANIFEST_PATH, { cache: 'no-cache' }));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  api = undefined;
  event.waitUntil(self.clients.claim());
});

/** Catalog rows up to this size are downloaded whole for offline use once a page has its first answers. */
const KEPT_WHOLE_BYTES = 8 * 2 ** 20;

let keeping: Promise<void> | undefined;
/** Keeps the site's pages and their files for offline use, once per worker, after the first answers. */
function keepOffline(): Promise<void> {
  keeping ??= (async () => {
    const { manifest } = await engine();
    const cache = await caches.open(CACHE);
    // A small catalog is kept whole; a large one keeps the families as they are read.
    const data = manifest.dataBytes <= KEPT_WHOLE_BYTES ? Object.values(manifest.families).flat() : [];
    for (const file of [...manifest.shell, ...data])
      if (!(await cache.match(base + file))) await cache.add(new Request(base + file, { cache: 'no-cache' }));
  })();
  keeping.catch(() => (keeping = undefined));
  return keeping;
}

// A page loaded by a hard reload is not controlled until the worker claims it; a page asks when the site works offline
// (see register.ts).
self.addEventListener('message', (event) => {
  if (event.data === 'claim') event.waitUntil(self.clients.claim());
  if (event.data === 'offline') event.waitUntil(keepOffline().then(() => event.ports[0]?.postMessage('offline')));
});

/** A `Response` of an engine answer. */
const response = ({ status, headers, body }: SiteAnswer) => new Response(body ?? null, { status, headers });

/** Pages and their files (the reference, GraphiQL's files): served from the cache, else the network. */
const isPage = (apiPath: string) => /^\/api\/docs(?:\/|$)/.test(apiPath) || /^\/api\/graphql\/./.test(apiPath);

async function answer(request: Request, url: URL): Promise<Response> {
  const apiPath = url.pathname.slice(base.length - 1);
  if (apiPath === '/api' || apiPath.startsWith('/api/')) {
    const header = (name: string) => request.headers.get(name) ?? undefined;
    const graphql = /^\/api\/graphql\/?$/.test(apiPath);
    const page = isPage(apiPath) || (graphql && wantsGraphiQL('GET', url.searchParams.has('query'), header('accept')));
    if (page && request.method === 'GET') return cachedOrNetwork(request);
    const { api: site, manifest } = await engine();
    const asked: SiteRequest = { method: request.method, url, header };
    if (graphql && (request.method === 'GET' || request.method === 'POST'))
      return response(await site.answerGraphQL(asked, await request.text()));
    // A saved answer of the server (endpoints, OpenAPI document, ping), its ETag made as the server makes it.
    const fixed = manifest.fixed[apiPath.replace(/\/$/, '')];
    if (fixed && (request.method === 'GET' || request.method === 'HEAD'))
      return response(site.fixedAnswer(asked, fixed, await (await siteFile(fixed.file)).text()));
    return response(await site.answer(asked));
  }
  if (apiPath.startsWith('/images/') && request.method === 'GET') {
    const { api: site } = await engine();
    const drawn = await site.answerPicture(
      { method: 'GET', url, header: (name) => request.headers.get(name) ?? undefined },
      apiPath,
    );
    if (drawn) return response(drawn);
  }
  return cachedOrNetwork(request);
}

/** A site file from the cache, else from the network (pictures are kept as they are first fetched). */
async function cachedOrNetwork(request: Request): Promise<Response> {
  const kept = await caches.match(request, { ignoreSearch: true });
  if (kept) return kept;
  const fetched = await fetch(request);
  if (fetched.ok && request.method === 'GET' && new URL(request.url).pathname.startsWith(`${base}images/`))
    await (await caches.open(CACHE)).put(request, fetched.clone());
  return fetched;
}

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== self.location.origin || !url.pathname.startsWith(base)) return;
  event.respondWith(
    answer(event.request, url).catch((error: unknown) => {
      console.error('site worker:', error);
      const { method } = event.request;
      const message = `The site's worker could not answer ${method} ${url.pathname}: ${String(error)}`;
      return new Response(errorJson({ status: 503, method, message, url: url.pathname }), {
        status: 503,
        headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
      });
    }),
  );
});
