import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import { HttpError } from '../lib/http-error.ts';
import { checkTarget } from '../reads/target.ts';
import { SECURITY_HEADERS } from './headers.ts';

/** Whether `req` is HTTP/1.1 or later without a `Host` (an empty one counts as none): a 400 on every path. */
export function lacksHost(req: IncomingMessage): boolean {
  return req.httpVersionMajor === 1 && req.httpVersionMinor >= 1 && !req.headers.host;
}

/**
 * What every request must be before anything else looks at it: HTTP/1.1 with a `Host`
 * (RFC 9112 §3.2), a target of at most MAX_TARGET_BYTES (`checkTarget`). Also sets the headers every answer
 * carries, errors included.
 */
export function requestGuard(): Middleware {
  return (ctx, next) => {
    ctx.set(SECURITY_HEADERS);
    if (lacksHost(ctx.req)) throw new HttpError(400, 'An HTTP/1.1 request needs a Host header');
    checkTarget(ctx.url);
    return next();
  };
}
