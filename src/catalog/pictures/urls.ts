import type { CatalogRecord } from '../types.ts';
import { LOCAL_PICTURE } from '../../lib/formats.ts';
import { isLocalPicture } from './references.ts';

/**
 * Each of a record's picture fields (`thumbnail`, `images`) rewritten by `change`; the record itself when none changes.
 */
function mapPictures<T extends Record<string, unknown>>(record: T, change: (value: unknown) => unknown): T {
  const { thumbnail, images } = record;
  const thumbnailAfter = thumbnail === undefined ? undefined : change(thumbnail);
  const imagesAfter = Array.isArray(images) ? images.map(change) : undefined;
  const changedImages = imagesAfter !== undefined && imagesAfter.some((image, i) => image !== (images as unknown[])[i]);
  if (thumbnailAfter === thumbnail && !changedImages) return record;
  return {
    ...record,
    ...(thumbnailAfter !== thumbnail ? { thumbnail: thumbnailAfter } : {}),
    ...(changedImages ? { images: imagesAfter } : {}),
  };
}

/**
 * The record with the pictures it names under `/images/` made absolute with `origin` (see
 * `pictureOrigin`); absolute URLs (HawAPI's layout) are left as they are.
 *
 * @example
 * withPictureUrls(record, 'http://localhost:3000').thumbnail; // 'http://localhost:3000/images/actors/….svg'
 */
export function withPictureUrls(record: CatalogRecord, origin: string): CatalogRecord {
  if (!origin) return record;
  return mapPictures(record, (value) => (isLocalPicture(value) ? origin + value : value));
}

/**
 * A write's body with the pictures an answer made absolute (`withPictureUrls`: `origin`
 * followed by a picture path) given back their path, so that the data keeps `/images/…`
 * whichever host a record was read from and sent back by. Anything else, other URLs
 * included, is left for the write's checks to judge.
 *
 * @example
 * withLocalPictures({ thumbnail: 'http://localhost:3000/images/actors/a.svg' }, 'http://localhost:3000');
 * // { thumbnail: '/images/actors/a.svg' }
 */
export function withLocalPictures(body: unknown, origin: string): unknown {
  if (!origin || typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  return mapPictures(body as Record<string, unknown>, (value) => {
    if (typeof value !== 'string' || !value.startsWith(`${origin}/images/`)) return value;
    const path = value.slice(origin.length);
    return LOCAL_PICTURE.test(path) ? path : value;
  });
}
