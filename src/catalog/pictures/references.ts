import { isFamilyName, type FamilyName } from '../families.ts';

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
 * pictureReferences({ uuid, href, thumbnail: '/images/actors/x.svg' });
 * // [{ path: '/images/actors/x.svg', at: '/thumbnail', variant: 0 }]
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

/** The highest `n` of a drawn picture's `-n` variant: the thumbnail is 0, the n-th of `images` is n. */
export const MAX_VARIANT = 999;

const DRAWN_PATH = /^\/images\/([a-z]+)\/([^/]+?)(?:-([1-9][0-9]{0,2}))?\.svg$/;

/** What a drawn picture's path names: the record it is drawn for (by family and uuid) and its variant. */
export interface DrawnPicture {
  family: FamilyName;
  uuid: string;
  variant: number;
}

/**
 * The record and variant `path` would be drawn for, when it has the form of a drawn picture
 * (`generatedPicturePath`); undefined otherwise. Whether that record exists is the caller's
 * to ask: any record may show any record's drawn picture while that record is in the catalog.
 *
 * @example
 * drawnPicture('/images/characters/9df6…-2.svg'); // { family: 'characters', uuid: '9df6…', variant: 2 }
 */
export function drawnPicture(path: string): DrawnPicture | undefined {
  const [, family, uuid, variant] = DRAWN_PATH.exec(path) ?? [];
  if (family === undefined || !isFamilyName(family)) return undefined;
  return { family, uuid: uuid!, variant: variant === undefined ? 0 : Number(variant) };
}
