import { createHash } from 'node:crypto';
import type { Catalog } from '../catalog.ts';
import type { FamilyName } from '../families.ts';
import type { FamilyStore } from '../store.ts';
import { drawPicture, type PictureSubject } from './draw.ts';
import { pictureType } from './file-types.ts';
import { pictureReferences } from './references.ts';
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

/** `/images/<family>/<uuid>[-n].svg`: the only paths a drawn picture may have. */
const DRAWN_PATH = /^\/images\/([a-z]+)\/([^/]+?)(?:-[1-9][0-9]{0,2})?\.svg$/;

/**
 * The picture `catalog` serves at `path`: the file the data directory holds there (a
 * contributor's picture wins), else the one drawn for the record whose own drawn picture the
 * path is (the load check lets no other record name it); undefined when the catalog names no
 * picture there. Draws on every call: the caller keeps what it serves.
 *
 * @example
 * pictureAt(catalog, '/images/characters/9df6….svg')?.type; // 'image/svg+xml'
 */
export function pictureAt(catalog: Catalog, path: string): Picture | undefined {
  const file = catalog.pictureFiles.get(path);
  if (file) return picture(file, pictureType(path));
  const [, family, uuid] = DRAWN_PATH.exec(path) ?? [];
  const store = family !== undefined && catalog.stores.get(family as FamilyName);
  const position = store ? store.position(uuid!) : undefined;
  if (!store || position === undefined) return undefined;
  const reference = pictureReferences(store.records[position]!).find((named) => named.path === path);
  return (
    reference &&
    picture(Buffer.from(drawPicture(subjectOf(catalog, store, position), reference.variant)), 'image/svg+xml')
  );
}
