import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import { DEFAULT_SLOTS, RepeatFilter } from '../lib/repeat-filter.ts';
import { answerEtag, type Sha1 } from '../lib/etag.ts';
import type { AnswerCache, BuiltAnswer } from '../reads/types.ts';

/** SHA-1 by Node's `crypto`. */
const nodeSha1: Sha1 = (parts) => {
  const hash = createHash('sha1');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

/** Bodies below this many bytes are sent uncompressed: the saving is not worth the work. */
const COMPRESS_FROM = 1024;

/** Media types compressed already (PNG, JPEG, WebP pictures, gzip tarballs): gzip or br would only cost. */
const PRECOMPRESSED = /^(?:image\/(?:png|jpeg|webp)|application\/gzip)$/;

/**
 * What an answer costs in memory beyond the characters and bytes it holds: the entry and its
 * headers object, the Buffer objects, the cache's map and list slots. Measured by filling a
 * cache with 50,000 answers and reading the heap after a collection (test/response-cache.test.ts
 * keeps it honest).
 */
export const ENTRY_OVERHEAD_BYTES = 900;

/**
 * A copy of `bytes` in memory of its own. Bodies are never slices of Node's shared 8 KB pool:
 * one small answer kept in the cache would keep its whole slab alive.
 */
function ownCopy(bytes: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(copy);
  return copy;
}

/**
 * A serialized answer: its bytes, its ETag and the headers that go with it. Compressed
 * variants are made on first demand and kept with it.
 */
export class CachedResponse {
  private encoded?: { br?: Buffer; gzip?: Buffer };
  /**
   * The quoted ETags, made once: a tag built per answer is a rope string, which Node's header
   * check (a regular expression) and the If-None-Match comparison each had to flatten first.
   */
  private readonly tags: Record<string, string>;
  /** Characters of the key, the tags and the headers: what the entry holds besides its bodies. */
  private chars: number;
  /** Whether clients may get it compressed (and caches must vary on Accept-Encoding). */
  readonly compressible: boolean;

  constructor(
    readonly key: string,
    readonly body: Buffer,
    /** Headers of every variant, `Content-Type` included. */
    readonly headers: Readonly<Record<string, string>>,
    /** Names the bytes and headers (see ResponseCache.get): an unrelated write leaves it as it was. */
    readonly etag: string,
    private readonly grown: (entry: CachedResponse) => void = () => {},
  ) {
    this.tags = { identity: `"${etag}"` };
    this.compressible = body.length >= COMPRESS_FROM && !PRECOMPRESSED.test(headers['Content-Type'] ?? '');
    let chars = key.length + 2 * etag.length + 2;
    for (const name in headers) chars += name.length + headers[name]!.length;
    this.chars = chars;
  }

  /** The strong ETag of the variant in `encoding`. */
  etagFor(encoding: string): string {
    let tag = this.tags[encoding];
    if (tag === undefined) {
      tag = this.tags[encoding] = `"${this.etag}-${encoding}"`;
      this.chars += tag.length;
      this.grown(this);
    }
    return tag;
  }

  /** The body in `encoding` (`br`, `gzip` or `identity`), compressing once. */
  bytes(encoding: string): Buffer {
    if (encoding === 'identity') return this.body;
    const variant = encoding as 'br' | 'gzip';
    let bytes = this.encoded?.[variant];
    if (!bytes) {
      const compressed =
        variant === 'br'
          ? brotliCompressSync(this.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } })
          : gzipSync(this.body);
      bytes = ownCopy(compressed);
      (this.encoded ??= {})[variant] = bytes;
      this.grown(this);
    }
    return bytes;
  }

  /** What the entry takes in memory: its bytes, its characters and the measured overhead. */
  get size(): number {
    return (
      ENTRY_OVERHEAD_BYTES +
      this.chars +
      this.body.length +
      (this.encoded?.br?.length ?? 0) +
      (this.encoded?.gzip?.length ?? 0)
    );
  }
}

/**
 * Serialized responses of one catalog version, keyed by what the bytes depend on (route,
 * query, language). Bounded by what the entries really take in memory, compressed variants
 * and the entries' own overhead included: least recently used entries go first. An answer is
 * kept from its key's second request on: URLs asked once (a crawler's, or an attacker's made-up
 * pages) neither push out the answers asked again nor leave old garbage for the collector.
 */
export class ResponseCache implements AnswerCache<CachedResponse> {
  private readonly entries?: LRUCache<string, CachedResponse>;
  private readonly repeats?: RepeatFilter;

  /**
   * `previous`: the cache of the version this one follows, whose record of the keys asked
   * before this one goes on with: after a write, an answer asked before is kept from its first
   * request on, not built twice.
   */
  constructor(
    maxBytes: number,
    readonly version: string,
    previous?: ResponseCache,
  ) {
    if (maxBytes > 0) {
      this.entries = new LRUCache({ maxSize: maxBytes, sizeCalculation: (entry) => entry.size });
      // A slot per KB of the cache, from 1,024 (4 KB) to the default (256 KB, for 64 MB): a classroom sandbox's
      // 256 KB cache, made anew at each of its writes, took a filter as large as itself.
      this.repeats =
        previous?.repeats ?? new RepeatFilter(Math.min(DEFAULT_SLOTS, Math.max(2 ** 10, maxBytes / 2 ** 10)));
    }
  }

  /** The cached JSON answer for `key`, building it on a miss (kept if asked before and not cheap). */
  get(key: string, build: () => BuiltAnswer): CachedResponse {
    let entry = this.entries?.get(key);
    if (!entry) {
      const { json, headers = {}, cheap = false } = build();
      const etag = answerEtag(headers, json, nodeSha1);
      const body = Buffer.allocUnsafeSlow(Buffer.byteLength(json));
      body.write(json);
      // A new compressed variant makes the entry bigger: set it again so the budget sees it.
      const keep = !cheap && this.repeats !== undefined && this.repeats.seenBefore(key);
      entry = new CachedResponse(
        key,
        body,
        { 'Content-Type': 'application/json', ...headers },
        etag,
        keep ? (grown) => this.entries?.set(grown.key, grown) : undefined,
      );
      if (keep) this.entries!.set(key, entry);
    }
    return entry;
  }

  /** The cached answer for `key` if it is still held; never builds. */
  peek(key: string): CachedResponse | undefined {
    return this.entries?.get(key);
  }

  /** Bytes the kept answers take, by the same measure as the budget. */
  get bytes(): number {
    return this.entries?.calculatedSize ?? 0;
  }
}
