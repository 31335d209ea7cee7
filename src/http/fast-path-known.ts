import type { ErrorFields } from './errors.ts';
import type { RouteBudget } from './routing.ts';

// What the fast path remembers of a URL, and what that costs in memory.

/** A GET the app answered, as the fast path replays it. */
export interface Known {
  version: string;
  budget: RouteBudget;
  /** Headers the app had set before the limits ran (CORS, nosniff), as pairs: those of a 401 or 429. */
  base: string[];
  /**
   * The answer's headers as name, value pairs (the form `writeHead` walks fastest), but those
   * set anew per answer (PER_ANSWER) and those the fast path writes itself (`writtenHere`).
   */
  headers: string[];
  path: string;
  params?: unknown;
  /**
   * A cached answer (by its key in the response cache, or a picture's path), a client error rendered anew each time, or only
   * that the URL was refused (a 429): a request admitted after all is handed to Koa, counted.
   */
  answer: { cacheKey: string; cacheControl: string; picture: boolean } | { error: ErrorFields } | { refusedOnly: true };
}

/**
 * What remembering one URL costs beyond its characters: the Known object, its headers and
 * base objects, the cache slots (measured as the response cache's overhead is).
 */
export const KNOWN_OVERHEAD_BYTES = 700;

function charsOf(record: Record<string, unknown> | readonly string[] | undefined): number {
  let chars = 0;
  if (Array.isArray(record)) for (const text of record) chars += text.length;
  else for (const name in record) chars += name.length + String(record[name as keyof typeof record]).length;
  return chars;
}

/** What remembering `known` under `key` takes in memory, the strings counted whole. */
export function knownSize(known: Known, key: string): number {
  const params = known.params as Record<string, unknown> | undefined;
  const error = 'error' in known.answer ? known.answer.error.message.length + known.answer.error.url.length : 0;
  return KNOWN_OVERHEAD_BYTES + key.length + known.path.length + charsOf(known.headers) + charsOf(params) + error;
}

/** What the fast path writes itself: the type of every answer, and an error's `Cache-Control`. */
export function writtenHere(answer: Known['answer']): string[] {
  return 'cacheKey' in answer ? ['content-type'] : ['content-type', 'cache-control'];
}
