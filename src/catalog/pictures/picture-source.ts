import { createHash } from 'node:crypto';
import { tagOf } from '../../lib/etag.ts';
import type { Catalog } from '../catalog.ts';
import { drawnPictureAt } from './drawn-pictures.ts';
import { pictureType } from './file-types.ts';

/** A picture ready to serve: its bytes, media type and a tag naming the bytes. */
export interface Picture {
  bytes: Buffer;
  type: string;
  etag: string;
}

function picture(bytes: Buffer, type: string): Picture {
  return { bytes, type, etag: tagOf(createHash('sha1').update(bytes).digest()) };
}

/**
 * The picture `catalog` serves at `path`: the file the data directory holds there (a
 * contributor's picture wins), else the picture drawn for the record the path names
 * (`drawnPictureAt`); undefined when there is none. Draws on every call: the caller keeps what
 * it serves.
 *
 * @example
 * pictureAt(catalog, '/images/characters/9df6….svg')?.type; // 'image/svg+xml'
 */
export function pictureAt(catalog: Catalog, path: string): Picture | undefined {
  const file = catalog.pictureFiles.get(path);
  if (file) return picture(file, pictureType(path));
  const drawn = drawnPictureAt(catalog, path);
  return drawn === undefined ? undefined : picture(Buffer.from(drawn), 'image/svg+xml');
}
