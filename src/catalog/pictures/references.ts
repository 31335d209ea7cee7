import type { CatalogRecord } from '../types.ts';

/** Whether a value of `thumbnail` or `images` names a picture this server serves. */
export function isLocalPicture(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith('/images/');
}

/** A local picture a record names, with the JSON path of the field that names it. */
export interface PictureReference {
  path: string;
  at: string;
  /** 0 for the thumbnail, n for the n-th entry of `images`. */
  variant: number;
}

/**
 * The local pictures a record names (its `thumbnail`, then its `images`), skipping absolute
 * URLs (a catalog in HawAPI's layout) and what is not text (the schema check names those).
 *
 * @example
 * pictureReferences({ uuid, href, thumbnail: '/images/actors/x.svg' }); // [{ path: '/images/actors/x.svg', at: '/thumbnail', variant: 0 }]
 */
export function pictureReferences(record: Record<string, unknown>): PictureReference[] {
  const found: PictureReference[] = [];
  if (isLocalPicture(record.thumbnail)) found.push({ path: record.thumbnail, at: '/thumbnail', variant: 0 });
  if (Array.isArray(record.images)) {
    record.images.forEach((image, i) => {
      if (isLocalPicture(image)) found.push({ path: image, at: `/images/${i}`, variant: i + 1 });
    });
  }
  return found;
}

/**
 * The path of the picture the server draws for a record when no file is there: variant 0 is
 * the thumbnail, n the n-th of `images`. `npm run new` writes these.
 *
 * @example
 * generatedPicturePath('characters', '9df6…', 0); // '/images/characters/9df6….svg'
 * generatedPicturePath('characters', '9df6…', 2); // '/images/characters/9df6…-2.svg'
 */
export function generatedPicturePath(family: string, uuid: string, variant: number): string {
  return `/images/${family}/${uuid}${variant === 0 ? '' : `-${variant}`}.svg`;
}

/** Whether `path` is one of the pictures the server draws for `record` of `family`. */
export function isGeneratedPicture(
  path: string,
  family: string,
  record: CatalogRecord | Record<string, unknown>,
): boolean {
  const prefix = `/images/${family}/${String(record.uuid)}`;
  return path.startsWith(prefix) && /^(?:-[1-9][0-9]{0,2})?\.svg$/.test(path.slice(prefix.length));
}
