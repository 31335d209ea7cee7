import type { IncomingMessage } from 'node:http';
import accepts from 'accepts';
import fresh from 'fresh';
import type { Context } from 'koa';
import type { CachedResponse } from './cached-response.ts';

/** A cacheable answer ready to write: status, headers and (but for a 304) the bytes. */
export interface CacheableAnswer {
  status: 200 | 304;
  headers: Record<string, string>;
  body?: Buffer;
}

/**
 * The one place a cached answer is negotiated, for Koa and the fast path alike: the
 * encoding the client prefers among br, gzip and identity (compressed once per entry), the
 * strong ETag of that variant, `Cache-Control`, and a 304 when `If-None-Match` already holds
 * it. `cacheControl: 'no-store'` (random endpoints) sends no ETag and never a 304. Uses the
 * `accepts` and `fresh` packages Koa itself uses.
 *
 * @example
 * const { status, headers, body } = cacheableAnswer(req, entry, 'public, max-age=300');
 */
export function cacheableAnswer(req: IncomingMessage, entry: CachedResponse, cacheControl: string): CacheableAnswer {
  const negotiator = accepts(req);
  const encoding = entry.encodingFor((...encodings) => negotiator.encodings(encodings));
  const headers: Record<string, string> = { ...entry.headers, 'Cache-Control': cacheControl };
  if (entry.compressible) headers.Vary = 'Accept-Encoding';
  if (cacheControl !== 'no-store') {
    headers.ETag = entry.etagFor(encoding);
    if (fresh(req.headers, { etag: headers.ETag })) {
      delete headers['Content-Type'];
      return { status: 304, headers };
    }
  }
  if (encoding !== 'identity') headers['Content-Encoding'] = encoding;
  return { status: 200, headers, body: entry.bytes(encoding) };
}

/** What `send` leaves on `ctx.state` for the fast path to remember. */
export interface SentState {
  sent?: { entry: CachedResponse; cacheControl: string };
}

/**
 * Sends a cached answer through Koa (see `cacheableAnswer`), keeping headers set earlier
 * (`Vary: Accept-Language`, limits), and notes it for the fast path.
 *
 * @example
 * send(ctx, cache.get(key, build), 'public, max-age=300');
 */
export function send(ctx: Context, entry: CachedResponse, cacheControl: string): void {
  const { status, headers, body } = cacheableAnswer(ctx.req, entry, cacheControl);
  const { Vary: vary, ...rest } = headers;
  ctx.set(rest);
  if (vary) ctx.vary(vary);
  ctx.status = status;
  if (body) ctx.body = body;
  (ctx.state as SentState).sent = { entry, cacheControl };
}
