import type { Middleware } from 'koa';
import { HttpError } from '../lib/http-error.ts';
import { notJson, prototypeKey, tooLarge, wrongCharset, wrongType } from '../lib/json-request.ts';
import { parsedFrom } from './fast-post.ts';

/** @koa/bodyparser, loaded by the first request with a body: reads never need it (nor its zlib, qs and iconv-lite). */
let parserModule: Promise<typeof import('@koa/bodyparser')> | undefined;
const parser = () => (parserModule ??= import('@koa/bodyparser'));

/** Largest accepted request body. */
const BODY_LIMIT_BYTES = 16 * 1024;

/** Content codings a request body may use (what the parser can undo), lower case. */
const CODINGS = ['identity', 'gzip', 'deflate', 'br'];

/** A body-parser failure (co-body, raw-body, zlib) as an HttpError naming what was wrong: always a client error. */
function bodyError(coding: string, maxBytes: number): (error: unknown) => never {
  return (error) => {
    const e = error as { status?: number; type?: string; message?: string; code?: string };
    if (e.status === 413) throw tooLarge(maxBytes);
    if (e.status === 400 && e instanceof SyntaxError) {
      // secure-json-parse, under co-body, refuses keys that would reach an object's prototype.
      if (/prototype property/.test(e.message ?? '')) throw prototypeKey();
      throw notJson(String(e.message));
    }
    if (e.status === 400) throw new HttpError(400, `Request body could not be read: ${e.message ?? e.type}`);
    // Anything else failed while the body was read or decoded (zlib and brotli errors carry no
    // status): the bytes the client sent are at fault, not the server.
    if (coding !== 'identity')
      throw new HttpError(400, `Request body is not valid ${coding} data (Content-Encoding: ${coding})`);
    throw new HttpError(400, `Request body could not be read: ${e.message ?? 'unknown error'}`);
  };
}

/** The request's content coding, lower case; a 415 for one the parser cannot undo. */
function codingOf(header: string | undefined): string {
  const coding = (header ?? 'identity').trim().toLowerCase() || 'identity';
  if (!CODINGS.includes(coding)) {
    throw new HttpError(415, `Content-Encoding '${header}' is not supported; use one of ${CODINGS.join(', ')}`, {
      'Accept-Encoding': CODINGS.slice(1).join(', '),
    });
  }
  return coding;
}

/**
 * Parses a JSON request body into `ctx.request.body` with @koa/bodyparser. Anything but
 * `application/json` (any case, RFC 9110 §8.3.1) or a charset other than UTF-8 is a 415, as
 * is a content coding other than gzip, deflate or br; a body over `maxBytes` (16 KB) is a 413, malformed
 * JSON or bytes that do not decode a 400: all in the service's error shape.
 *
 * @example
 * router.post('/api/v1/auth/register', jsonBody(), handler);
 */
export function jsonBody(options: { maxBytes?: number; types?: readonly string[] } = {}): Middleware {
  const maxBytes = options.maxBytes ?? BODY_LIMIT_BYTES;
  const types = options.types ?? ['application/json'];
  return async (ctx, next) => {
    const type = ctx.request.type.trim().toLowerCase();
    if (!types.includes(type)) throw wrongType(types, ctx.request.type);
    // JSON is UTF-8 (RFC 8259); the parser would decode any other declared charset as UTF-8.
    const charset = ctx.request.charset.toLowerCase();
    if (charset && charset !== 'utf-8' && charset !== 'utf8') throw wrongCharset(charset);
    const coding = codingOf(ctx.get('Content-Encoding') || undefined);
    // The parser reads the header itself and knows the codings only in lower case.
    ctx.req.headers['content-encoding'] = coding;
    const { bodyParser } = await parser();
    const parse = bodyParser({
      enableTypes: ['json'],
      extendTypes: { json: [...types] },
      jsonLimit: maxBytes,
      onError: bodyError(coding, maxBytes),
    });
    // A body the fast path read ahead (to look for a remembered answer) is parsed from its bytes.
    await parse(parsedFrom(ctx), next);
  };
}
