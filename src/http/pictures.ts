import type { Catalog } from '../catalog/catalog.ts';
import { pictureSet } from '../catalog/pictures/picture-set.ts';
import { CachedResponse } from './cached-response.ts';

/**
 * The policy a picture is served under: opened on its own (an SVG is a document), it may run
 * no script, load nothing and is sandboxed; only its own inline styles apply.
 */
export const PICTURE_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/** `Cache-Control` of a picture: a week, revalidated by its ETag after that (a picture changes only with the data). */
export const PICTURE_CACHE_CONTROL = 'public, max-age=604800';

/**
 * Every picture a catalog names under `/images/`, as cached answers keyed by path: the exact
 * media type, `nosniff`, the policy above and a strong ETag named by the bytes. Made when a
 * catalog version is served, never per request.
 *
 * @example
 * servedPictures(catalog).get('/images/actors/4498….svg'); // a CachedResponse of image/svg+xml
 */
export function servedPictures(catalog: Catalog): ReadonlyMap<string, CachedResponse> {
  const served = new Map<string, CachedResponse>();
  for (const [path, { bytes, type, etag }] of pictureSet(catalog)) {
    served.set(path, new CachedResponse(path, bytes, { 'Content-Type': type, 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': PICTURE_CSP }, etag));
  }
  return served;
}
