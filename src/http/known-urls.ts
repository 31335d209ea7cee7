import type { IncomingMessage } from 'node:http';
import { LRUCache } from 'lru-cache';
import { RepeatFilter } from '../lib/repeat-filter.ts';
import type { ErrorFields } from '../lib/error-json.ts';
import type { RouteBudget } from './routing.ts';

// What the fast path remembers of a URL, and what that costs in memory.

/** A GET (or a POST by its body) the app answered, as the fast path replays it. */
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
  /** A POST remembered by its body (`bodyKey`); a GET otherwise. */
  method?: 'POST';
  /** The account whose sandbox gave this answer (`ownKey`): replayed to that account alone. */
  account?: string;
  path: string;
  params?: unknown;
  /**
   * A cached answer (by its key in the response cache, or a picture's path), a client error rendered anew each time, or
   * only that the URL was refused (a 429): a request admitted after all is handed to Koa, counted.
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

/**
 * What the fast path writes itself: the type and file name of every answer (from its entry: a
 * 304 has neither, and may be what was remembered), and an error's `Cache-Control`.
 */
export function writtenHere(answer: Known['answer']): string[] {
  return 'cacheKey' in answer ? ['content-type', 'content-disposition'] : ['content-type', 'cache-control'];
}

/**
 * Where the answer a student's sandbox gave to `url` is remembered: apart from the shared
 * answers, since a request target never holds a line break.
 */
export const ownKey = (account: string, url: string): string => `${account}\n${url}`;

/** A URL remembered: a number that stands for it in the keys, and the request headers its answer varies on. */
interface RememberedUrl {
  id: string;
  names: string[];
}

/**
 * What the fast path remembers, within its memory: answers kept in the response cache, and
 * apart from them 400s, 404s and 429s (a stream of made-up URLs must not push out the answers
 * that took work), each by URL and the values of the headers it varies on.
 *
 * @example
 * const memory = new KnownUrls({ answersBytes: 2 ** 23, errorsBytes: 2 ** 20 });
 * memory.learn('/api/v1/actors', ['accept-encoding'], req.headers, known);
 * memory.recall('/api/v1/actors', req.headers); // known, for the same Accept-Encoding
 */
export class KnownUrls {
  private readonly answers: LRUCache<string, Known>;
  private readonly errors: LRUCache<string, Known>;
  /** An error is remembered from its URL's second request on, as answers are kept (ResponseCache). */
  private readonly errorRepeats = new RepeatFilter();
  /** A long URL is then hashed once per request, not twice. */
  private readonly urls: LRUCache<string, RememberedUrl>;
  private nextId = 0;

  constructor({ answersBytes, errorsBytes }: { answersBytes: number; errorsBytes: number }) {
    const sized = (maxSize: number) => ({ maxSize: Math.max(1, Math.floor(maxSize)), sizeCalculation: knownSize });
    this.answers = new LRUCache<string, Known>(sized(answersBytes * 0.75));
    this.errors = new LRUCache<string, Known>(sized(errorsBytes));
    this.urls = new LRUCache<string, RememberedUrl>({
      maxSize: Math.max(1, Math.floor(answersBytes * 0.25 + errorsBytes)),
      sizeCalculation: ({ names }, url) => KNOWN_OVERHEAD_BYTES / 2 + url.length + names.join('').length,
    });
  }

  private static key({ id, names }: RememberedUrl, headers: IncomingMessage['headers']): string {
    let key = id;
    for (const name of names) key += `\n${String(headers[name] ?? '')}`;
    return key;
  }

  /** Whether `url` was seen before (an error answer of it is then remembered). */
  repeated(url: string): boolean {
    return this.errorRepeats.seenBefore(url);
  }

  /** Remembers `known` for `url` asked with these values of the headers `names`. */
  learn(url: string, names: string[], headers: IncomingMessage['headers'], known: Known): void {
    const remembered = { id: this.urls.get(url)?.id ?? String(this.nextId++), names };
    this.urls.set(url, remembered);
    ('cacheKey' in known.answer ? this.answers : this.errors).set(KnownUrls.key(remembered, headers), known);
  }

  /** What was remembered for `url` asked with these headers, or undefined. */
  recall(url: string, headers: IncomingMessage['headers']): Known | undefined {
    const remembered = this.urls.get(url);
    if (!remembered) return undefined;
    const key = KnownUrls.key(remembered, headers);
    return this.answers.get(key) ?? this.errors.get(key);
  }
}
