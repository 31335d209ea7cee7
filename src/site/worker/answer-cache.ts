import { sha1 } from '@noble/hashes/legacy.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { LRUCache } from 'lru-cache';
import { utf8Length } from '../../lib/utf8.ts';
import { answerEtag, tagOf } from '../../lib/etag.ts';
import type { AnswerCache, BuiltAnswer } from '../../reads/types.ts';

/** An answer the worker built: its JSON, its headers (the type included) and its ETag, as the server's. */
export interface WorkerEntry {
  json: string;
  headers: Readonly<Record<string, string>>;
  etag: string;
  /** Its length in UTF-8, as `Content-Length` says it. */
  bytes: number;
}

/** SHA-1 in the browser, synchronous (the Web Crypto API's is not): the same tag the server's `crypto` makes. */
const browserSha1 = (parts: readonly string[]) => sha1(utf8ToBytes(parts.join('')));

/** The ETag of `text`'s UTF-8 bytes, as the server tags a picture. */
export const bytesTag = (text: string) => tagOf(sha1(utf8ToBytes(text)));

/** Answers kept by a worker: few, since a page asks again what it showed, and each is rebuilt in a millisecond. */
const KEPT = 500;

/**
 * The worker's answers by key: built by the read routes, tagged by the server's formula
 * (`answerEtag`), the last few hundred kept.
 */
export class WorkerCache implements AnswerCache<WorkerEntry> {
  private readonly entries = new LRUCache<string, WorkerEntry>({ max: KEPT });

  get(key: string, build: () => BuiltAnswer): WorkerEntry {
    let entry = this.entries.get(key);
    if (!entry) {
      const { json, headers = {}, cheap = false } = build();
      entry = workerEntry(json, headers);
      if (!cheap) this.entries.set(key, entry);
    }
    return entry;
  }
}

/** A JSON answer with its type and the server's ETag. */
export function workerEntry(json: string, headers: Record<string, string>): WorkerEntry {
  return {
    json,
    headers: { 'Content-Type': 'application/json', ...headers },
    etag: answerEtag(headers, json, browserSha1),
    bytes: utf8Length(json),
  };
}
