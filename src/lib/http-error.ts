/**
 * The service's one error type, at the bottom of the import graph so that every layer may
 * throw it: a status, a message naming what was wrong, and any headers the answer needs
 * (`WWW-Authenticate`, `Retry-After`...). One place renders it (`http/errors.ts`).
 *
 * @example
 * throw new HttpError(404, `Actor '${uuid}' not found`);
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}
