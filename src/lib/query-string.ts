/**
 * A query string parsed as Koa parses it for `ctx.query` (held equal by
 * test/query-string.test.ts), for a face without Koa (a static site's worker): WHATWG
 * `URLSearchParams` decoding, a repeated key as an array, keys in the order first given, and
 * every key an own property (`__proto__` and `toString` included).
 *
 * @example
 * parseQuery('a=1&a=2&q=two+words'); // { a: ['1', '2'], q: 'two words' }
 */
export function parseQuery(text: string): Record<string, string | string[]> {
  const params = new URLSearchParams(text);
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    const value = values.length === 1 ? values[0]! : values;
    Object.defineProperty(query, key, { value, writable: true, enumerable: true, configurable: true });
  }
  return query;
}
