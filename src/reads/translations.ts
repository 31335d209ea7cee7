import type { FamilyName } from '../catalog/families.ts';
import { recordPath } from '../catalog/href.ts';
import type { FamilyStore } from '../catalog/store.ts';
import { HttpError } from '../lib/http-error.ts';
import { publicCache, title, type Locate } from './locate.ts';
import { checkLanguageParameter } from './request-query.ts';
import type { ReadExchange, ReadRoute, ReadServed, ReadSettings } from './types.ts';

/**
 * One translation as served: its language, then the translated fields (no parent uuid); undefined when the record has
 * none in `language`.
 */
export function translationOf(store: FamilyStore, position: number, language: string): object | undefined {
  const found = store.translationsOf(position).find((t) => t.language === language);
  return found && { language, ...found.fields };
}

/** The cache key of a translation answer under `path` (the record's path). */
const translationKey = (name: FamilyName, path: string, suffix: string) => `translations ${name} ${path} ${suffix}`;

/** One translation's answer, from the cache: what `GET …/translations/{language}` sends and a write answers. */
export function translationEntry<Entry>(
  served: ReadServed<Entry>,
  name: FamilyName,
  position: number,
  language: string,
): Entry {
  const store = served.catalog.store(name);
  const record = recordPath(name, store.records[position]!.uuid);
  return served.cache.get(translationKey(name, `${record}/translations/${language}`, language), () => ({
    json: JSON.stringify(translationOf(store, position, language)),
    headers: { 'Content-Language': language },
  }));
}

/** The store and record position of a translation route, its `language` parameter checked first. */
function located<Entry>(x: ReadExchange<Entry>, name: FamilyName, locate: Locate) {
  checkLanguageParameter(x, x.served.catalog); // an unknown `language` is a 400 here too
  const store = x.served.catalog.store(name);
  return { store, position: locate(x, store) };
}

/**
 * `…/translations`, `…/translations/random` and `…/translations/{language}` under `base`.
 * `locate` finds the record (a uuid parameter, or the single overview).
 */
export function translationRoutes(settings: ReadSettings, name: FamilyName, base: string, locate: Locate): ReadRoute[] {
  const cacheKey = <Entry>(x: ReadExchange<Entry>, suffix: string) => translationKey(name, x.path, suffix);
  return [
    {
      path: `${base}/translations`,
      handler: (x) => {
        const { store, position } = located(x, name, locate);
        const entry = x.served.cache.get(cacheKey(x, 'all'), () => {
          const rows = store.translationsOf(position).map(({ language, fields }) => ({ language, ...fields }));
          return {
            json: JSON.stringify(rows),
            headers: { 'Content-Language': store.languagesOf(position).join(', ') },
          };
        });
        x.send(entry, publicCache(settings));
      },
    },
    {
      path: `${base}/translations/random`,
      handler: (x) => {
        const { store, position } = located(x, name, locate);
        const languages = store.languagesOf(position);
        const language = languages[Math.floor(Math.random() * languages.length)]!;
        const entry = x.served.cache.get(cacheKey(x, language), () => ({
          json: JSON.stringify(translationOf(store, position, language)),
          headers: { 'Content-Language': language },
        }));
        x.send(entry, 'no-store');
      },
    },
    {
      path: `${base}/translations/:language`,
      handler: (x) => {
        const { store, position } = located(x, name, locate);
        const asked = String(x.params.language);
        const available = store.languagesOf(position);
        // HawAPI answers 404 for any language a record has no translation in, known to the catalog or not.
        const language = available.find((l) => l.toLowerCase() === asked.toLowerCase());
        if (!language) {
          throw new HttpError(
            404,
            `${title(store)} '${store.records[position]!.uuid}' has no translation in '${asked}'; available: ` +
              `${available.join(', ')}`,
          );
        }
        x.send(translationEntry(x.served, name, position, language), publicCache(settings));
      },
    },
  ];
}
