import { HttpError } from '../lib/http-error.ts';
import { countsIn, type RouteTable } from '../http/routing.ts';
import { servedTo } from '../http/caller-view.ts';
import { send } from '../http/send.ts';
import type { ServedCatalog } from '../served/served-catalog.ts';
import { buildOpenApi, type OpenApiOptions } from './openapi.ts';
import { HOME } from './reference-paths.ts';
import { servedDocument } from './served-document.ts';
import { checkReferencePage, loadReferencePage } from './reference-page.ts';

/** What the reference needs: the document's settings, the catalog, and how long caches may keep it. */
export interface DocsOptions extends OpenApiOptions {
  served: ServedCatalog;
  cacheControl: string;
}

/**
 * `GET /` (a redirect to the reference), `/api/docs` (the reference page, Swagger UI),
 * `/api/docs/{asset}` (its files, from node_modules and src/docs/page), `/favicon.ico` (the
 * service's icon, for a browser showing an answer that links none) and `/api/openapi.json`. The
 * document and the files are built and read once, on first use. None of
 * them counts against the rate limits: a classroom loading the page must not spend its
 * budget on it.
 *
 * @example
 * docsRoutes(router, { served, cacheControl: 'public, max-age=300', defaultLanguage: 'en-US', maxPageSize: 50 });
 */
export function docsRoutes(router: RouteTable, { served, cacheControl, ...document }: DocsOptions): void {
  // Built and read on first use: a server nobody opens the reference of keeps neither in memory.
  checkReferencePage();
  let reference: ReturnType<typeof loadReferencePage> | undefined;
  const files = () => (reference ??= loadReferencePage());
  const free = countsIn('free');

  router.get('/', free, (ctx) => {
    // One answer whatever the Accept header (Koa's redirect picks the body's type by it), as the document describes it.
    ctx.status = 302;
    ctx.set('Location', HOME.location);
    ctx.type = HOME.type;
    ctx.body = HOME.body;
  });

  router.get('/api/openapi.json', free, (ctx) => {
    // Under npm run dev with broken data the page still loads, without the catalog's examples.
    if (!served.ready) {
      ctx.set('Cache-Control', 'no-store');
      ctx.type = 'application/json';
      ctx.body = JSON.stringify(buildOpenApi(document));
      return;
    }
    const { catalog, cache } = servedTo(ctx, { served });
    // Made for the catalog being served: its series names the document, its records fill the examples.
    const entry = cache.get('openapi.json', () => ({ json: JSON.stringify(servedDocument(catalog, document)) }));
    send(ctx, entry, cacheControl);
  });

  router.get('/api/docs', free, (ctx) => {
    send(ctx, files().page, cacheControl);
  });

  router.get('/favicon.ico', free, (ctx) => {
    send(ctx, files().assets.get('favicon.svg')!, cacheControl);
  });

  router.get('/api/docs/:asset', free, (ctx) => {
    const name = String(ctx.params.asset);
    const { assets } = files();
    const file = assets.get(name);
    if (!file)
      throw new HttpError(404, `The API reference has no file '${name}'; it has ${[...assets.keys()].join(', ')}`);
    send(ctx, file, cacheControl);
  });
}
