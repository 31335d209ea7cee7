import type { Router } from '@koa/router';
import type { Context } from 'koa';
import { HttpError } from '../lib/http-error.ts';
import { send } from '../http/response-cache.ts';
import { publicCache, type RouteDeps } from '../http/routes/context.ts';
import { buildOpenApi } from './openapi.ts';
import { loadReferencePage, REFERENCE_CSP, type PageFile } from './reference-page.ts';

/** Sends a file of the page with its ETag, or a 304 when `If-None-Match` holds it. */
function sendFile(ctx: Context, file: PageFile, cacheControl: string): void {
  ctx.status = 200;
  ctx.set('Cache-Control', cacheControl);
  ctx.set('ETag', file.etag);
  ctx.type = file.type;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.body = file.body;
}

/**
 * `GET /` (a redirect to the reference), `/api/docs` (the reference page, Swagger UI),
 * `/api/docs/{asset}` (its files, from node_modules and src/docs/page) and
 * `/api/openapi.json`. The document and the files are built and read once, here.
 *
 * @example
 * docsRoutes(router, { served, config }); // in createApp, after the API's routes
 */
export function docsRoutes(router: Router, deps: RouteDeps): void {
  const openapi = JSON.stringify(buildOpenApi({ defaultLanguage: deps.config.DEFAULT_LANGUAGE, maxPageSize: deps.config.MAX_PAGE_SIZE }));
  const { page, assets } = loadReferencePage();
  const cacheControl = publicCache(deps.config);

  router.get('/', (ctx) => {
    ctx.redirect('/api/docs');
  });

  router.get('/api/openapi.json', (ctx) => {
    send(ctx, deps.served.current.cache.get('openapi.json', () => ({ json: openapi })), cacheControl);
  });

  router.get('/api/docs', (ctx) => {
    ctx.set('Content-Security-Policy', REFERENCE_CSP);
    sendFile(ctx, page, cacheControl);
  });

  router.get('/api/docs/:asset', (ctx) => {
    const name = String(ctx.params.asset);
    const file = assets.get(name);
    if (!file) throw new HttpError(404, `The API reference has no file '${name}'; it has ${[...assets.keys()].join(', ')}`);
    sendFile(ctx, file, cacheControl);
  });
}
