import type { Catalog } from '../catalog.ts';
import type { FamilyName } from '../families.ts';
import type { FieldIndex } from '../field-index.ts';
import { uuidIn } from '../href.ts';
import type { FamilyStore } from '../store.ts';
import { drawPicture, type PictureSubject } from './draw.ts';
import { drawnPicture } from './references.ts';

// The pictures the catalog draws for its records, on the server and in a static site's worker.

/** What a record's generated pictures show: its name (in the default language) and a detail line. */
function subjectOf(catalog: Catalog, store: FamilyStore, position: number): PictureSubject {
  const record = store.records[position]!;
  const fields = { ...record, ...store.translation(position, store.defaultLanguage).fields };
  const family = store.family.name as FamilyName;
  const names = [fields.first_name, fields.last_name].filter((part) => typeof part === 'string').join(' ');
  const name = String(fields.title ?? fields.name ?? (names || record.uuid));
  const detail =
    family === 'episodes'
      ? `S${String(seasonNumber(catalog, fields.season))} · E${String(fields.episode_num ?? '?')}`
      : family === 'seasons'
        ? String(fields.season_num ?? '')
        : family === 'soundtracks'
          ? String(fields.artist ?? '')
          : family === 'games'
            ? ((fields.platforms as string[] | undefined) ?? []).join(' · ')
            : '';
  return { family, uuid: record.uuid, name, detail };
}

/** The number of the season an episode's `season` href points to, or '?' without one. */
function seasonNumber(catalog: Catalog, season: unknown): string {
  const seasons = catalog.store('seasons');
  const uuid = typeof season === 'string' ? uuidIn(season, 'seasons') : undefined;
  const position = uuid === undefined ? undefined : seasons.position(uuid);
  return String(position === undefined ? '?' : seasons.records[position]!.season_num);
}

/**
 * Every family's index of each picture field it has (`thumbnail`, `images`), with its store:
 * where the records naming a picture path are looked up.
 */
export function* pictureIndexes(catalog: Catalog): Generator<{ store: FamilyStore; index: FieldIndex }> {
  for (const store of catalog.stores.values()) {
    for (const field of ['thumbnail', 'images'])
      if (store.family.fields.has(field)) yield { store, index: store.index(field, catalog.defaultLanguage) };
  }
}

/** Whether a record of `catalog` names `path` in its `thumbnail` or `images`. */
function named(catalog: Catalog, path: string): boolean {
  for (const { index } of pictureIndexes(catalog)) if (index.get(path).length > 0) return true;
  return false;
}

/**
 * The SVG drawn at `path` for the record the path names (`drawnPicture`: the naming record's
 * own, or another's it shows), when a record of `catalog` names the path; undefined otherwise.
 * Draws on every call.
 *
 * @example
 * drawnPictureAt(catalog, '/images/characters/9df6….svg'); // '<svg xmlns=…'
 */
export function drawnPictureAt(catalog: Catalog, path: string): string | undefined {
  const drawn = drawnPicture(path);
  const store = drawn && catalog.stores.get(drawn.family);
  const position = store ? store.position(drawn!.uuid) : undefined;
  if (!store || position === undefined || !named(catalog, path)) return undefined;
  return drawPicture(subjectOf(catalog, store, position), drawn!.variant);
}
