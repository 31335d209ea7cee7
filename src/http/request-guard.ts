import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import { HttpError } from '../lib/http-error.ts';
import { SECURITY_HEADERS } from './headers.ts';

/**
 * Longest request target (path and query) served. Lists echo their query in up to four
 * `Link` targets and errors echo it in their body, so this keeps every answer's headers far
 * below the 16 KB that Node's and undici's clients accept.
 */
export const MAX_TARGET_BYTES = 2048;

/** Whether `req` is HTTP/1.1 or later without a `Host` (an empty one counts as none): a 400 on every path. */
export function lacksHost(req: IncomingMessage): boolean {
  return req.httpVersionMajor === 1 && req.httpVersionMinor >= 1 && !req.headers.host;
}

/** Whether a request target is longer than MAX_TARGET_BYTES: a 414 on every path. */
export function targetTooLong(url: string): boolean {
  return Buffer.byteLength(url) > MAX_TARGET_BYTES;
}

/**
 * What every request must be before anything else looks at it: HTTP/1.1 with a `Host`
 * (RFC 9112 §3.2), a target of at most MAX_TARGET_BYTES. Also sets the headers every answer
 * carries, errors included.
 */
export function requestGuard(): Middleware {
  return (ctx, next) => {
    ctx.set(SECURITY_HEADERS);
    if (lacksHost(ctx.req)) throw new HttpError(400, 'An HTTP/1.1 request needs a Host header');
    if (targetTooLong(ctx.url)) {
      throw new HttpError(
        414,
        `Request target is ${Buffer.byteLength(ctx.url)} bytes long; at most ${MAX_TARGET_BYTES} are served`,
      );
    }
    return next();
  };
}
