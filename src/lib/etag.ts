/** SHA-1 of the UTF-8 bytes of `parts` joined: Node's `crypto` on the server, a pure-JS one in a browser. */
export type Sha1 = (parts: readonly string[]) => Uint8Array;

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** `bytes` in unpadded base64url (RFC 4648 §5), with no Node or browser API. */
export function base64url(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a = 0, b = 0, c = 0] = [bytes[i], bytes[i + 1], bytes[i + 2]];
    const word = (a << 16) | (b << 8) | c;
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let k = 0; k < chars; k++) text += BASE64URL[(word >> (18 - 6 * k)) & 63];
  }
  return text;
}

/** The ETag (unquoted) of bytes whose SHA-1 is `digest`: 22 characters of its base64url. */
export function tagOf(digest: Uint8Array): string {
  return base64url(digest).slice(0, 22);
}

/**
 * The ETag (unquoted) of an answer: a hash of what is sent, its headers and its JSON, not of
 * the data's version, so a maintainer's `If-Match` on one record still holds after a write to
 * another, and every instance and a static site's worker name the same bytes alike.
 *
 * @example
 * answerEtag({ 'Content-Language': 'en-US' }, '{"uuid":"…"}', sha1); // 'k3J…' (22 characters)
 */
export function answerEtag(headers: Readonly<Record<string, string>>, json: string, sha1: Sha1): string {
  return tagOf(sha1([JSON.stringify(headers), '\0', json]));
}
