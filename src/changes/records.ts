import type { Catalog } from '../catalog/catalog.ts';
import { present } from '../catalog/present.ts';
import { socialNamed } from '../catalog/socials.ts';
import { translationOf } from '../reads/translations.ts';
import type { Change } from './types.ts';

/**
 * What the href of `change` answers now in `catalog` (`include=records`): the record in
 * `language`, the translation, or the social; null when it is gone since; undefined for a
 * tombstone or a change of no record (new data, a reset), which carry no record.
 *
 * @example
 * recordNow({ action: 'changed', family: 'actors', uuid, … }, catalog, 'en-US', ''); // { uuid, first_name: … }
 */
export function recordNow(change: Change, catalog: Catalog, language: string, origin: string): unknown {
  const { family, uuid } = change;
  if (change.deleted || family === undefined || uuid === undefined) return undefined;
  const store = catalog.store(family);
  const position = store.position(uuid);
  if (position === undefined) return null;
  if (change.language !== undefined) return translationOf(store, position, change.language) ?? null;
  if (change.social !== undefined) return socialNamed(store.records[position]!, change.social) ?? null;
  return present(store, position, language, origin);
}
