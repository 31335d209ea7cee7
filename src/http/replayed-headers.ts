import type { Middleware } from 'koa';

// The headers the fast path replays an answer with, kept as Koa sent them.

/** Headers that change with the encoding, the moment, the connection or the client's budget. */
const PER_ANSWER_NAMES = [
  'etag',
  'content-encoding',
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'retry-after',
  'x-rate-limit-.*',
  'ratelimit',
  'ratelimit-policy',
];
const PER_ANSWER = new RegExp(`^(${PER_ANSWER_NAMES.join('|')})$`);

/** The headers an answer was sent with, but those set anew per answer (PER_ANSWER), as text. */
export function plain(headers: Record<string, unknown>): Record<string, string> {
  const found: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !PER_ANSWER.test(name))
      found[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return found;
}

/** `headers` as name, value pairs, without the names in `skip`. */
export function pairsOf(headers: Record<string, string>, skip: readonly string[] = []): string[] {
  const pairs: string[] = [];
  for (const name in headers) if (!skip.includes(name)) pairs.push(name, headers[name]!);
  return pairs;
}

/**
 * A copy of `pairs` with the limit headers' pairs added. Pairs rather than an object: Node
 * walks an array with plain index loads, where an object of fifteen headers costs it a
 * `for…in`, an own-property check and a generic lookup per name. Copied with `slice` and
 * `push`, which the engine runs in generated code; `concat` is a call into its C++ runtime.
 */
export function withLimits(pairs: readonly string[], limitHeaders: readonly string[] | undefined): string[] {
  const all = pairs.slice();
  if (limitHeaders) for (let i = 0; i < limitHeaders.length; i++) all.push(limitHeaders[i]!);
  return all;
}

/** The request headers an answer varies on, but the encoding (negotiated per answer). */
export function variesOn(vary: string | undefined): string[] {
  return (vary ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name && name !== 'accept-encoding');
}

/** What `captureBase` leaves on `ctx.state`. */
export interface BaseState {
  base?: Record<string, string>;
}

/**
 * Notes the headers set before the limits run (CORS, nosniff), which a 401 or 429 carries:
 * the fast path answers those with the same headers Koa would.
 */
export function captureBase(): Middleware<BaseState> {
  return (ctx, next) => {
    ctx.state.base = plain(ctx.response.headers);
    return next();
  };
}
