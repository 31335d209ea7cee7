import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import { HttpError } from '../lib/http-error.ts';

/** Largest accepted request body. */
const BODY_LIMIT_BYTES = 16 * 1024;

/** A body-parser failure (co-body / raw-body) as an HttpError naming what was wrong. */
function bodyError(error: unknown): never {
  const e = error as { status?: number; type?: string; message?: string };
  if (e.status === 413) throw new HttpError(413, `Request body is larger than ${BODY_LIMIT_BYTES / 1024} KB`);
  if (e.status === 400 && e instanceof SyntaxError) throw new HttpError(400, `Request body is not valid JSON: ${e.message}`);
  if (e.status === 400) throw new HttpError(400, `Request body could not be read: ${e.message ?? e.type}`);
  throw error;
}

/**
 * Parses a JSON request body into `ctx.request.body` with @koa/bodyparser. Anything but
 * `application/json` (or a charset other than UTF-8) is a 415, a body over 16 KB a 413,
 * malformed JSON a 400 — all in the service's error shape.
 *
 * @example
 * router.post('/api/v1/auth/register', jsonBody(), handler);
 */
export function jsonBody(): Middleware {
  const parse = bodyParser({ enableTypes: ['json'], jsonLimit: BODY_LIMIT_BYTES, onError: bodyError });
  return async (ctx, next) => {
    if (ctx.request.type !== 'application/json') {
      throw new HttpError(415, `Content-Type must be application/json (got ${ctx.request.type || 'none'})`);
    }
    // JSON is UTF-8 (RFC 8259); the parser would decode any other declared charset as UTF-8.
    const charset = ctx.request.charset.toLowerCase();
    if (charset && charset !== 'utf-8' && charset !== 'utf8') throw new HttpError(415, `Content-Type charset must be utf-8 (got ${charset})`);
    await parse(ctx, next);
  };
}
