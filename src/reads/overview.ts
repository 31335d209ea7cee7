import { familyPath } from '../catalog/href.ts';
import { present } from '../catalog/present.ts';
import { HttpError } from '../lib/http-error.ts';
import { pictureOrigin, publicCache, type Locate } from './locate.ts';
import { requestLanguage } from './request-query.ts';
import { translationRoutes } from './translations.ts';
import type { ReadExchange, ReadRoute, ReadServed, ReadSettings } from './types.ts';

/**
 * The overview's answer in `language` (with `data_count`), its pictures under `origin`, from the cache: what a GET
 * sends and a write answers.
 */
export function overviewEntry<Entry>(served: ReadServed<Entry>, language: string, origin: string): Entry {
  const { catalog, cache } = served;
  return cache.get(`${language} ${origin}${familyPath('overview')}`, () => {
    const record: Record<string, unknown> = {
      ...present(catalog.store('overview'), 0, language, origin),
      data_count: catalog.counts(),
    };
    return { json: JSON.stringify(record), headers: { 'Content-Language': String(record.language) } };
  });
}

/** The overview, for a route with or without its uuid: a 404 for another uuid. */
const single: Locate = (x) => {
  const uuid = String(x.params.uuid ?? '').toLowerCase();
  if (uuid && uuid !== x.served.catalog.overview.uuid) throw new HttpError(404, `Overview '${uuid}' not found`);
  return 0;
};

/** `/api` (what the official clients read as API info): the overview's title, and where things are. */
export function apiInfo(settings: ReadSettings): ReadRoute {
  const { about } = settings;
  return {
    path: '/api',
    handler: (x) => {
      const { catalog, cache } = x.served;
      const origin = x.origin();
      const entry = cache.get(`api ${origin}`, () => {
        const { fields } = catalog.store('overview').translation(0, catalog.defaultLanguage);
        const info = {
          title: String(fields.title ?? ''),
          description: String(fields.description ?? ''),
          version: about.version,
          url: origin,
          docs: `${origin}/api/docs`,
          github: about.repository?.url ?? '',
          github_home: about.homepage ?? '',
          api_url: `${origin}/api`,
          api_version: 'v1',
          api_path: '/api',
          api_base_url: '/api/v1',
          license: about.license,
          license_url: `https://spdx.org/licenses/${about.license}.html`,
          data_version: x.served.version,
        };
        return { json: JSON.stringify(info) };
      });
      // Without a public URL the answer echoes where it was asked: no shared cache may reuse it for another.
      x.send(entry, settings.publicUrl ? publicCache(settings) : `private, max-age=${settings.cacheSeconds}`);
    },
  };
}

/** `/api/v1/overview` (with `data_count`), `/overview/{uuid}` and the overview's translations. */
export function overviewRoutes(settings: ReadSettings): ReadRoute[] {
  const sendOverview = <Entry>(x: ReadExchange<Entry>) => {
    const { catalog } = x.served;
    const language = requestLanguage(x, catalog, catalog.store('overview').family);
    x.send(overviewEntry(x.served, language, pictureOrigin(x)), publicCache(settings));
  };
  return [
    { path: familyPath('overview'), handler: sendOverview },
    ...translationRoutes(settings, 'overview', familyPath('overview'), single),
    {
      path: `${familyPath('overview')}/:uuid`,
      handler: (x) => {
        single(x, x.served.catalog.store('overview'));
        sendOverview(x);
      },
    },
  ];
}
