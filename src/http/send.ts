import type { IncomingMessage } from 'node:http';
import accepts from 'accepts';
import fresh from 'fresh';
import type { Context } from 'koa';
import { memo } from '../lib/memo.ts';
import type { CachedResponse } from '../served/cached-response.ts';

/** A cacheable answer ready to write: status, headers and (but for a 304) the bytes. */
export interface CacheableAnswer {
  status: 200 | 304;
  headers: Record<string, string>;
  body?: Buffer;
}

/** What negotiation decides for one request: the status, the variant, and its tag. */
export interface Negotiated {
  status: 200 | 304;
  encoding: string;
  /** Undefined for `no-store` answers. */
  etag?: string;
}

/**
 * The one place a cached answer is negotiated, for Koa and the fast path alike: the
 * encoding the client prefers among br, gzip and identity, the strong ETag of that variant,
 * and a 304 when `If-None-Match` already holds it. `cacheControl: 'no-store'` (random
 * endpoints) has no ETag and never a 304. Uses the `accepts` and `fresh` packages Koa itself
 * uses.
 *
 * @example
 * negotiate(req, entry, 'public, max-age=300'); // { status: 200, encoding: 'br', etag: '"…-br"' }
 */
export function negotiate(req: IncomingMessage, entry: CachedResponse, cacheControl: string): Negotiated {
  const encoding = entry.compressible ? preferredEncoding(req) : 'identity';
  if (cacheControl === 'no-store') return { status: 200, encoding };
  const etag = entry.etagFor(encoding);
  return { status: fresh(req.headers, { etag }) ? 304 : 200, encoding, etag };
}

/**
 * A negotiated cached answer with all its headers: the entry's, `Cache-Control`, `Vary`,
 * `ETag` and `Content-Encoding` (each variant compressed once, kept by the entry).
 *
 * @example
 * const { status, headers, body } = cacheableAnswer(req, entry, 'public, max-age=300');
 */
export function cacheableAnswer(req: IncomingMessage, entry: CachedResponse, cacheControl: string): CacheableAnswer {
  const { status, encoding, etag } = negotiate(req, entry, cacheControl);
  const headers: Record<string, string> = { ...entry.headers, 'Cache-Control': cacheControl };
  if (entry.compressible) headers.Vary = 'Accept-Encoding';
  if (etag) headers.ETag = etag;
  if (status === 304) {
    // No metadata of the body it does not send (RFC 9110, 15.4.5): its type, its file name.
    delete headers['Content-Type'];
    delete headers['Content-Disposition'];
    return { status, headers };
  }
  if (encoding !== 'identity') headers['Content-Encoding'] = encoding;
  return { status, headers, body: entry.bytes(encoding) };
}

/**
 * The client's preference among br, gzip and identity, as `accepts` decides it, remembered
 * per `Accept-Encoding` value (clients send a handful): at most 1,000 values of at most 200
 * characters, under 300 KB.
 */
const encodingFor = memo(
  (header) =>
    accepts({ headers: { 'accept-encoding': header } } as IncomingMessage).encoding('br', 'gzip', 'identity') ||
    'identity',
  { entries: 1000, maxLength: 200 },
);

function preferredEncoding(req: IncomingMessage): string {
  return encodingFor(req.headers['accept-encoding'] ?? '');
}

/** What `send` leaves on `ctx.state` for the fast path to remember. */
export interface SentState {
  sent?: { entry: CachedResponse; cacheControl: string };
}

/**
 * Sends a cached answer through Koa (see `cacheableAnswer`), keeping headers set earlier
 * (`Vary: Accept-Language`, limits), and notes it for the fast path, which then replays it
 * to every request of the same URL with the same values of the headers in `Vary`. So the
 * answer must depend on nothing but the URL and the headers the route named with `ctx.vary`
 * (CONTRIBUTING.md, "What the fast path may replay").
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
