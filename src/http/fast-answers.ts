import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CachedResponse } from '../served/cached-response.ts';
import type { ErrorFields } from '../lib/error-json.ts';
import { errorBody } from './errors.ts';
import type { Known } from './known-urls.ts';
import type { HttpError } from '../lib/http-error.ts';
import { pairsOf, withLimits } from './replayed-headers.ts';
import { negotiate } from './send.ts';

// How the fast path writes its answers on the raw response: an error, or a cached answer.

/** Writes an error answer: `headers` (pairs, with no type or `Cache-Control`), the limit headers, the body's own. */
export function writeError(
  req: IncomingMessage,
  res: ServerResponse,
  fields: ErrorFields,
  headers: readonly string[],
  limitHeaders?: readonly string[],
): { headers: string[]; body: string } {
  const { type, body } = errorBody(fields, req);
  const all = withLimits(headers, limitHeaders);
  all.push('content-type', type, 'cache-control', 'no-store', 'content-length', String(Buffer.byteLength(body)));
  res.writeHead(fields.status, all).end(body);
  return { headers: all, body };
}

/** Sends a cached answer with the headers the app sent with it. */
export function replay(
  req: IncomingMessage,
  res: ServerResponse,
  known: Known,
  entry: CachedResponse,
  limitHeaders?: readonly string[],
): void {
  const { status, encoding, etag } = negotiate(req, entry, (known.answer as { cacheControl: string }).cacheControl);
  const head = withLimits(known.headers, limitHeaders);
  if (etag) head.push('etag', etag);
  if (status === 304) {
    res.writeHead(304, head).end();
    return;
  }
  const body = entry.bytes(encoding);
  if (encoding !== 'identity') head.push('content-encoding', encoding);
  // Remembered from a 200 or a 304: the type and file name come from the entry either way.
  head.push('content-type', entry.headers['Content-Type']!, 'content-length', String(body.length));
  const disposition = entry.headers['Content-Disposition'];
  if (disposition !== undefined) head.push('content-disposition', disposition);
  res.writeHead(200, head).end(body);
}

/**
 * The 429s and 401s the fast path writes: those Koa gives before any route runs, with the
 * headers set by then and the error's. A 429 is the same answer for every request of one client
 * to one URL within a millisecond (its budget headers and message move by the second, its
 * timestamp by the millisecond), so a flood is answered with the last one rendered rather than
 * rendering each again.
 */
export class Refusals {
  /** The last 429 written, with what decides it. */
  private last?: {
    known: Known;
    at: number;
    message: string;
    accept: string | undefined;
    headers: string[];
    body: string;
  };

  write(
    req: IncomingMessage,
    res: ServerResponse,
    known: Known,
    error: Pick<HttpError, 'status' | 'message' | 'headers'>,
    limitHeaders: readonly string[] = [],
  ): void {
    const at = Date.now();
    const accept = req.headers.accept;
    const last = this.last;
    if (
      error.status === 429 &&
      last &&
      last.known === known &&
      last.at === at &&
      last.message === error.message &&
      last.accept === accept
    ) {
      res.writeHead(429, last.headers).end(last.body);
      return;
    }
    const fields: ErrorFields = {
      status: error.status,
      method: 'GET',
      message: error.message,
      url: known.path,
      ...(known.params ? { params: known.params } : {}),
    };
    // The error's own headers (Retry-After, WWW-Authenticate) are never among the base's.
    const written = writeError(req, res, fields, known.base.concat(pairsOf(error.headers)), limitHeaders);
    if (error.status === 429) this.last = { known, at, message: error.message, accept, ...written };
  }
}
