import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tagOf } from '../lib/etag.ts';
import { CachedResponse } from '../served/cached-response.ts';

/**
 * What a page the service serves (the API reference, GraphiQL) may load: only this service,
 * so even online it reaches nothing else. Their stylesheets draw icons and fonts with `data:`
 * URLs; React sets inline styles.
 */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src " +
  "'self'; font-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The headers of such a page: its policy, and no Referer sent to anything it links to. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': PAGE_CSP,
  'Referrer-Policy': 'no-referrer',
};

/**
 * A file of such a page, read into memory as a cacheable answer whose ETag is named by its
 * bytes (an upgrade of the package it comes from changes every tag).
 *
 * @example
 * staticFile(dir, 'index.html', { 'Content-Type': 'text/html; charset=utf-8', ...PAGE_HEADERS });
 */
export function staticFile(dir: string, name: string, headers: Record<string, string>): CachedResponse {
  const body = readFileSync(join(dir, name));
  return new CachedResponse(name, body, headers, tagOf(createHash('sha1').update(body).digest()));
}
