import type { Context } from 'koa';
import { familyPath } from '../../catalog/href.ts';
import { HttpError } from '../../lib/http-error.ts';
import type { CachedResponse } from '../../served/cached-response.ts';
import type { Served } from '../../served/served-catalog.ts';
import { PACKAGE as pkg } from '../../lib/package-info.ts';
import { pictureOrigin, requestOrigin } from '../origin.ts';
import { present } from '../../catalog/present.ts';
import { requestLanguage } from '../request-query.ts';
import { countsIn, type RouteTable } from '../routing.ts';
import { send } from '../send.ts';
import { servedTo } from '../caller-view.ts';
import { publicCache, type RouteDeps } from './context.ts';
import { translationRoutes } from './translations.ts';

/** `/api` (what the official clients read as API info), `/api/ping` and `/api/v1/endpoints`. */
export function metaRoutes(router: RouteTable, deps: RouteDeps): void {
  router.get('/api', (ctx) => {
    const { catalog, cache } = servedTo(ctx, deps);
    const origin = requestOrigin(ctx, deps.publicUrl);
    const entry = cache.get(`api ${origin}`, () => {
      const { fields } = catalog.store('overview').translation(0, catalog.defaultLanguage);
      const info = {
        title: String(fields.title ?? ''),
        description: String(fields.description ?? ''),
        version: pkg.version,
        url: origin,
        docs: `${origin}/api/docs`,
        github: pkg.repository?.url ?? '',
        github_home: pkg.homepage ?? '',
        api_url: `${origin}/api`,
        api_version: 'v1',
        api_path: '/api',
        api_base_url: '/api/v1',
        license: pkg.license,
        license_url: `https://spdx.org/licenses/${pkg.license}.html`,
      };
      return { json: JSON.stringify(info) };
    });
    // Without PUBLIC_URL the answer echoes where it was asked: no shared cache may reuse it for another.
    send(ctx, entry, deps.publicUrl ? publicCache(deps) : `private, max-age=${deps.cacheSeconds}`);
  });

  router.get('/api/ping', countsIn('free'), (ctx) => {
    ctx.body = 'Pong';
    ctx.type = 'text/plain';
  });

  router.get('/api/v1/endpoints', (ctx) => {
    const entry = servedTo(ctx, deps).cache.get('endpoints', () => {
      const routes = router.listed
        .filter((route) => route.method === 'GET')
        .map((route) => ({ method: 'GET', path: route.path.replace(/:(\w+)/g, '{$1}') }));
      return { json: JSON.stringify(routes) };
    });
    send(ctx, entry, publicCache(deps));
  });
}

/** The overview's answer in `language` (with `data_count`), its pictures under `origin`, from the cache: what a GET sends and a write answers. */
export function overviewEntry(served: Served, language: string, origin: string): CachedResponse {
  const { catalog, cache } = served;
  return cache.get(`${language} ${origin}${familyPath('overview')}`, () => {
    const record: Record<string, unknown> = {
      ...present(catalog.store('overview'), 0, language, origin),
      data_count: catalog.counts(),
    };
    return { json: JSON.stringify(record), headers: { 'Content-Language': String(record.language) } };
  });
}

/** `/api/v1/overview` (with `data_count`), `/overview/{uuid}` and the overview's translations. */
export function overviewRoutes(router: RouteTable, deps: RouteDeps): void {
  const sendOverview = (ctx: Context) => {
    const served = servedTo(ctx, deps);
    const { catalog } = served;
    const language = requestLanguage(ctx, catalog, catalog.store('overview').family);
    send(ctx, overviewEntry(served, language, pictureOrigin(ctx, deps.publicUrl, catalog)), publicCache(deps));
  };
  const single = (ctx: Context) => {
    const uuid = String(ctx.params.uuid ?? '').toLowerCase();
    if (uuid && uuid !== servedTo(ctx, deps).catalog.overview.uuid)
      throw new HttpError(404, `Overview '${uuid}' not found`);
    return 0;
  };
  router.get(familyPath('overview'), sendOverview);
  translationRoutes(router, deps, 'overview', familyPath('overview'), single);
  router.get(`${familyPath('overview')}/:uuid`, (ctx) => {
    single(ctx);
    sendOverview(ctx);
  });
}
