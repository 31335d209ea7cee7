// Plain JavaScript: also loaded by answer-recorder.mjs inside a compiled server, without tsx.

/**
 * The headers of an answer as its head was written on the wire (`res._header`), by lowercase
 * name, repeated names joined with ', '. `getHeaders()` would miss those given to `writeHead`
 * as pairs, which is how the fast path writes.
 *
 * @param {string | undefined | null} head
 * @returns {Record<string, string>}
 */
export function writtenHeaders(head) {
  const headers = {};
  for (const line of String(head ?? '')
    .split('\r\n')
    .slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return headers;
}
