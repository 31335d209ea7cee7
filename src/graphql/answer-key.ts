/**
 * Longest request text (a GET's query string, a POST's body) whose answer is looked up in and
 * kept in the response cache. Typical operations with their variables are a few hundred
 * characters; a longer text is answered but never kept, so no cache key (held with its answer,
 * and hashed on every lookup) is larger than this.
 */
export const MAX_KEPT_REQUEST_CHARS = 8192;

/**
 * The response-cache key of a GraphQL request's answer: everything the answer depends on. The
 * method (graphql-http reads a GET's operation from the URL, a POST's from the body), the
 * language the resolvers serve by default (from `Accept-Language`), the origin put before
 * picture paths (`pictureOrigin`: the Host or the forwarded one), `Accept` as sent (it picks the
 * media type, which changes the status of errors), and the request's text: a GET's query string,
 * a POST's body as sent, not re-serialized (its variables may nest deeper than JSON.stringify can
 * recurse, and clients repeat their bodies byte for byte). The caller matters to no query field
 * (mutations are never kept). Undefined when the text is too long to be kept
 * (MAX_KEPT_REQUEST_CHARS): such a request is always executed.
 *
 * @example
 * answerKey(
 *   { method: 'POST', text: '{"query":"{ overview { title } }"}', accept: 'application/json' },
 *   'pt-BR',
 *   'https://catalog.example.org',
 * );
 * // 'graphql POST pt-BR https://catalog.example.org application/json\n{"query":"{ overview { title } }"}'
 */
export function answerKey(
  request: { method: string; text: string | undefined; accept: string },
  preferred: string,
  origin: string,
): string | undefined {
  const { method, text, accept } = request;
  if (text === undefined || text.length > MAX_KEPT_REQUEST_CHARS) return undefined;
  return `graphql ${method} ${preferred} ${origin} ${accept}\n${text}`;
}
