import type { Catalog } from '../catalog/catalog.ts';

// What a read of the REST API needs from the face that carries it (Koa on the server, the
// Service Worker on a static site): the request's parts, and a way to send a cached answer.

/** A query-string parameter: text, text given more than once, or absent. */
export type QueryValue = string | string[] | undefined;

/** What a read builds on a cache miss: the JSON text, its headers, and whether it is worth keeping. */
export interface BuiltAnswer {
  json: string;
  headers?: Record<string, string>;
  /**
   * An answer that took no work to find (an empty list): it is served but not kept, so a
   * stream of such answers, one per made-up URL, cannot push out the answers that did.
   */
  cheap?: boolean;
}

/** Answers by key, built on a miss: the server's response cache, or a worker's. */
export interface AnswerCache<Entry> {
  get(key: string, build: () => BuiltAnswer): Entry;
}

/** The catalog a caller reads and the cache of its answers. */
export interface ReadServed<Entry> {
  readonly catalog: Catalog;
  /** The data version (see the change feed): what `/api` names. */
  readonly version: string;
  readonly cache: AnswerCache<Entry>;
}

/** What `/api` says of the software serving it (package.json's fields). */
export interface About {
  version: string;
  license: string;
  homepage?: string;
  repository?: { url?: string };
}

/** How reads are served, the same on every face. */
export interface ReadSettings {
  about: About;
  /** Seconds browsers and shared caches may keep a catalog answer. */
  cacheSeconds: number;
  /** Largest page a list answers with. */
  maxPageSize: number;
  /** Largest page a list answers in CSV: a whole list for a spreadsheet, sent as it is made. */
  maxCsvRows: number;
  /** The base URL answers name; unset: where each request was asked (`ReadExchange.origin`). */
  publicUrl?: string;
}

/** What a header-reading helper needs: a request header, and a way to say the answer depends on it. */
export interface HeaderReader {
  /** A request header's value by its lower-case name. */
  header(name: string): string | undefined;
  /** Notes that the answer depends on request header `name` (`Vary`). */
  vary(name: string): void;
}

/** One GET of the read API as a face hands it over. */
export interface ReadExchange<Entry> extends HeaderReader {
  /** The API path routed (`/api/v1/actors`), without a site's base. */
  readonly path: string;
  /** The path the client asked, base included: what `Link` targets start with. */
  readonly publicPath: string;
  /** The query string, without `?`. */
  readonly querystring: string;
  /** The query string parsed, as Node's `querystring.parse` does. */
  readonly query: Readonly<Record<string, QueryValue>>;
  /** The route's parameters, decoded (`uuid`, `language`, `social`). */
  readonly params: Readonly<Record<string, string>>;
  readonly served: ReadServed<Entry>;
  /** Where the service was reached (`publicUrl`, else from the request), varying the answer on what it read. */
  origin(): string;
  /** Whether a parameter is the face's own, not a filter (the simulation's `_delay`). */
  ignores(name: string): boolean;
  send(entry: Entry, cacheControl: string): void;
  /** Sends an answer too large to build whole, text chunk by text chunk as the client takes them (no ETag). */
  stream(chunks: Iterable<string>, headers: Record<string, string>, cacheControl: string): void;
}

/** A read route's handler, for any face's cache entries. */
export type ReadHandler = <Entry>(x: ReadExchange<Entry>) => void;

/** A GET route of the read API: its path (`:name` for a parameter) and handler. */
export interface ReadRoute {
  path: string;
  handler: ReadHandler;
}
