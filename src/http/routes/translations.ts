import type { Context } from 'koa';
import type { FamilyName } from '../../catalog/families.ts';
import { recordPath } from '../../catalog/href.ts';
import type { FamilyStore } from '../../catalog/store.ts';
import { HttpError } from '../../lib/http-error.ts';
import type { CachedResponse } from '../../served/cached-response.ts';
import type { Served } from '../../served/served-catalog.ts';
import { checkLanguageParameter } from '../request-query.ts';
import { send } from '../send.ts';
import { servedTo } from '../caller-view.ts';
import { publicCache, title, type RouteDeps } from './context.ts';
import type { RouteTable } from '../routing.ts';

type Locate = (ctx: Context, store: FamilyStore) => number;

/** One translation as served: its language, then the translated fields (no parent uuid). */
function translationJson(store: FamilyStore, position: number, language: string): string {
  const { fields } = store.translationsOf(position).find((t) => t.language === language)!;
  return JSON.stringify({ language, ...fields });
}

/** The cache key of a translation answer under `path` (the record's path). */
const translationKey = (name: FamilyName, path: string, suffix: string) => `translations ${name} ${path} ${suffix}`;

/** One translation's answer, from the cache: what `GET …/translations/{language}` sends and a write answers. */
export function translationEntry(served: Served, name: FamilyName, position: number, language: string): CachedResponse {
  const store = served.catalog.store(name);
  const record = recordPath(name, store.records[position]!.uuid);
  return served.cache.get(translationKey(name, `${record}/translations/${language}`, language), () => ({
    json: translationJson(store, position, language),
    headers: { 'Content-Language': language },
  }));
}

/**
 * `…/translations`, `…/translations/random` and `…/translations/{language}` under `base`.
 * `locate` finds the record (a uuid parameter, or the single overview).
 */
export function translationRoutes(
  router: RouteTable,
  deps: RouteDeps,
  name: FamilyName,
  base: string,
  locate: Locate,
): void {
  const cacheKey = (ctx: Context, suffix: string) => translationKey(name, ctx.path, suffix);

  router.get(`${base}/translations`, (ctx) => {
    const { catalog, cache } = servedTo(ctx, deps);
    checkLanguageParameter(ctx, catalog); // an unknown `language` is a 400 here too
    const store = catalog.store(name);
    const position = locate(ctx, store);
    const entry = cache.get(cacheKey(ctx, 'all'), () => {
      const rows = store.translationsOf(position).map(({ language, fields }) => ({ language, ...fields }));
      return { json: JSON.stringify(rows), headers: { 'Content-Language': store.languagesOf(position).join(', ') } };
    });
    send(ctx, entry, publicCache(deps));
  });

  router.get(`${base}/translations/random`, (ctx) => {
    const { catalog, cache } = servedTo(ctx, deps);
    checkLanguageParameter(ctx, catalog);
    const store = catalog.store(name);
    const position = locate(ctx, store);
    const languages = store.languagesOf(position);
    const language = languages[Math.floor(Math.random() * languages.length)]!;
    const entry = cache.get(cacheKey(ctx, language), () => ({
      json: translationJson(store, position, language),
      headers: { 'Content-Language': language },
    }));
    send(ctx, entry, 'no-store');
  });

  router.get(`${base}/translations/:language`, (ctx) => {
    const served = servedTo(ctx, deps);
    checkLanguageParameter(ctx, served.catalog);
    const store = served.catalog.store(name);
    const position = locate(ctx, store);
    const asked = String(ctx.params.language);
    const available = store.languagesOf(position);
    // HawAPI answers 404 for any language a record has no translation in, known to the catalog or not.
    const language = available.find((l) => l.toLowerCase() === asked.toLowerCase());
    if (!language) {
      throw new HttpError(
        404,
        `${title(store)} '${store.records[position]!.uuid}' has no translation in '${asked}'; available: ${available.join(', ')}`,
      );
    }
    send(ctx, translationEntry(served, name, position, language), publicCache(deps));
  });
}
