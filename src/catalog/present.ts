import { withPictureUrls } from './pictures/urls.ts';
import type { FamilyStore } from './store.ts';

/**
 * A record as the API serves it. Translated families get the translated fields of `language`
 * (or of the default language where the record has none) right after `href`, and
 * `language` (what was served) and `languages` (what the record has) at the end. Pictures
 * the catalog serves itself get `origin` before their path.
 *
 * @example
 * present(store, 0, 'pt-BR', 'http://localhost:3000');
 * // { uuid, href, title: 'O Sinal', ..., thumbnail: 'http://localhost:3000/images/…', language: 'pt-BR', languages:
 * // ['en-US', 'pt-BR'] }
 */
export function present(
  store: FamilyStore,
  position: number,
  language: string,
  origin: string,
): Record<string, unknown> {
  const record = withPictureUrls(store.records[position]!, origin);
  if (!store.family.translation) return record;
  const { uuid, href, ...rest } = record;
  const served = store.translation(position, language);
  // The overview's own `languages` (the catalog's) wins over the translation list.
  return { uuid, href, ...served.fields, languages: store.languagesOf(position), ...rest, language: served.language };
}
