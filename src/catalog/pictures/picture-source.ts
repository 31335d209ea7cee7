import { createHash } from 'node:crypto';
import type { Catalog } from '../catalog.ts';
import type { FamilyName } from '../families.ts';
import type { FieldIndex } from '../field-index.ts';
import type { FamilyStore } from '../store.ts';
import { drawPicture, type PictureSubject } from './draw.ts';
import { pictureType } from './file-types.ts';
import { drawnPicture } from './references.ts';
import { uuidIn } from '../href.ts';

/** A picture ready to serve: its bytes, media type and a tag naming the bytes. */
export interface Picture {
  bytes: Buffer;
  type: string;
  etag: string;
}

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

function picture(bytes: Buffer, type: string): Picture {
  return { bytes, type, etag: createHash('sha1').update(bytes).digest('base64url').slice(0, 22) };
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
 * The picture `catalog` serves at `path`: the file the data directory holds there (a
 * contributor's picture wins), else, when a record names the path, the picture drawn for the
 * record the path names (`drawnPicture`: the naming record's own, or another's it shows);
 * undefined when there is none. Draws on every call: the caller keeps what it serves.
 *
 * @example
 * pictureAt(catalog, '/images/characters/9df6….svg')?.type; // 'image/svg+xml'
 */
export function pictureAt(catalog: Catalog, path: string): Picture | undefined {
  const file = catalog.pictureFiles.get(path);
  if (file) return picture(file, pictureType(path));
  const drawn = drawnPicture(path);
  const store = drawn && catalog.stores.get(drawn.family);
  const position = store ? store.position(drawn!.uuid) : undefined;
  if (!store || position === undefined || !named(catalog, path)) return undefined;
  return picture(Buffer.from(drawPicture(subjectOf(catalog, store, position), drawn!.variant)), 'image/svg+xml');
}
