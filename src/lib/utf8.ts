/**
 * The length of `text` in UTF-8, as `Buffer.byteLength` counts it (a lone surrogate is the
 * 3 bytes of U+FFFD), without encoding it and without Node: limits and `Content-Length` are
 * counted alike on the server and in a static site's worker.
 *
 * @example
 * utf8Length('Maré'); // 5
 */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
