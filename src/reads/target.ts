import { HttpError } from '../lib/http-error.ts';
import { utf8Length } from '../lib/utf8.ts';

/**
 * Longest request target (path and query) served. Lists echo their query in up to four
 * `Link` targets and errors echo it in their body, so this keeps every answer's headers far
 * below the 16 KB that Node's and undici's clients accept.
 */
export const MAX_TARGET_BYTES = 2048;

/** Whether a request target is longer than MAX_TARGET_BYTES: a 414 on every path. */
export function targetTooLong(target: string): boolean {
  return target.length > MAX_TARGET_BYTES || utf8Length(target) > MAX_TARGET_BYTES;
}

/** Throws the 414 of a target longer than MAX_TARGET_BYTES, on the server and in a site's worker alike. */
export function checkTarget(target: string): void {
  if (targetTooLong(target))
    throw new HttpError(
      414,
      `Request target is ${utf8Length(target)} bytes long; at most ${MAX_TARGET_BYTES} are served`,
    );
}
