import { HttpError } from './http-error.ts';

// The refusals of a JSON request body, in one wording for the server (src/http/json-body.ts)
// and a static site's worker.

/** A body whose media type is not one of `types` (`got`: the type sent, without parameters). */
export const wrongType = (types: readonly string[], got: string) =>
  new HttpError(415, `Content-Type must be ${types.join(' or ')} (got ${got || 'none'})`);

/** A body declared in a charset other than UTF-8. */
export const wrongCharset = (charset: string) =>
  new HttpError(415, `Content-Type charset must be utf-8 (got ${charset})`);

/** A body over `maxBytes`. */
export const tooLarge = (maxBytes: number) => new HttpError(413, `Request body is larger than ${maxBytes / 1024} KB`);

/** A body that is not JSON, with the parser's reason. */
export const notJson = (reason: string) => new HttpError(400, `Request body is not valid JSON: ${reason}`);

/** A body with a key that would reach an object's prototype. */
export const prototypeKey = () =>
  new HttpError(400, "Request body has a '__proto__' or 'constructor.prototype' key: no record has such a field");
