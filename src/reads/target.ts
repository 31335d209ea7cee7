import { HttpError } from '../lib/http-error.ts';

/**
 * Longest request target (path and query) served. Lists echo their query in up to four
 * `Link` targets and errors echo it in their body, so this keeps every answer's headers far
 * below the 16 KB that Node's and undici's clients accept.
 */
export const MAX_TARGET_BYTES = 2048;

/** The target's length in UTF-8 bytes (a target as sent is ASCII but for a client that does not escape). */
const bytesOf = (target: string) => new TextEncoder().encode(target).length;

/** Whether a request target is longer than MAX_TARGET_BYTES: a 414 on every path. */
export function targetTooLong(target: string): boolean {
  return target.length > MAX_TARGET_BYTES || bytesOf(target) > MAX_TARGET_BYTES;
}

/** Throws the 414 of a target longer than MAX_TARGET_BYTES, on the server and in a site's worker alike. */
export function checkTarget(target: string): void {
  if (targetTooLong(target))
    throw new HttpError(414, `Request target is ${bytesOf(target)} bytes long; at most ${MAX_TARGET_BYTES} are served`);
}
