import { createHash } from 'node:crypto';
import type { Catalog } from '../catalog.ts';
import type { FamilyName } from '../families.ts';
import type { FamilyStore } from '../store.ts';
import { drawPicture, type PictureSubject } from './draw.ts';
import { pictureType } from './file-types.ts';
import { pictureReferences } from './references.ts';

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
  const position = typeof season === 'string' ? seasons.position(season.slice(season.lastIndexOf('/') + 1)) : undefined;
  return String(position === undefined ? '?' : seasons.records[position]!.season_num);
}

function picture(bytes: Buffer, type: string): Picture {
  return { bytes, type, etag: createHash('sha1').update(bytes).digest('base64url').slice(0, 22) };
}

/**
 * Every picture `catalog` names under `/images/`, by path: the file the data directory holds
 * for it (a contributor's picture wins), else the one drawn for its record. Made once per
 * catalog version, at boot or reload, so a request never draws: memory is bounded by the
 * records' references (each drawn picture is under 4 KB; files under MAX_PICTURE_BYTES).
 *
 * @example
 * pictureSet(catalog).get('/images/characters/9df6….svg')?.type; // 'image/svg+xml'
 */
export function pictureSet(catalog: Catalog): ReadonlyMap<string, Picture> {
  const pictures = new Map<string, Picture>();
  for (const store of catalog.stores.values()) {
    store.records.forEach((record, position) => {
      for (const { path, variant } of pictureReferences(record)) {
        if (pictures.has(path)) continue;
        const file = catalog.pictureFiles.get(path);
        pictures.set(path, file ? picture(file, pictureType(path)) : picture(Buffer.from(drawPicture(subjectOf(catalog, store, position), variant)), 'image/svg+xml'));
      }
    });
  }
  return pictures;
}
