import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { LRUCache } from 'lru-cache';

/** Bodies below this many bytes are sent uncompressed: the saving is not worth the work. */
const COMPRESS_FROM = 1024;

/**
 * A serialized answer: its bytes, its ETag and the headers that go with it. Compressed
 * variants are made on first demand and kept with it.
 */
export class CachedResponse {
  private encoded = new Map<string, Buffer>();

  constructor(
    readonly key: string,
    readonly body: Buffer,
    /** Headers of every variant, `Content-Type` included. */
    readonly headers: Readonly<Record<string, string>>,
    /** Names the bytes without reading them: they depend only on the cache key and data version. */
    readonly etag: string,
    private readonly grown: (entry: CachedResponse) => void = () => {},
  ) {}

  /** Whether clients may get it compressed (and caches must vary on Accept-Encoding). */
  get compressible(): boolean {
    return this.body.length >= COMPRESS_FROM;
  }

  /** The strong ETag of the variant in `encoding`. */
  etagFor(encoding: string): string {
    return encoding === 'identity' ? `"${this.etag}"` : `"${this.etag}-${encoding}"`;
  }

  /** The body in `encoding` (`br`, `gzip` or `identity`), compressing once. */
  bytes(encoding: string): Buffer {
    if (encoding === 'identity') return this.body;
    let bytes = this.encoded.get(encoding);
    if (!bytes) {
      bytes = encoding === 'br' ? brotliCompressSync(this.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }) : gzipSync(this.body);
      this.encoded.set(encoding, bytes);
      this.grown(this);
    }
    return bytes;
  }

  /** Bytes held, for the cache's budget. */
  get size(): number {
    let total = this.body.length + 200;
    for (const bytes of this.encoded.values()) total += bytes.length;
    return total;
  }
}

/**
 * Serialized responses of one catalog version, keyed by what the bytes depend on (route,
 * query, language). Bounded by bytes, compressed variants included: least recently used
 * entries go first.
 */
export class ResponseCache {
  private readonly entries?: LRUCache<string, CachedResponse>;

  constructor(
    maxBytes: number,
    readonly version: string,
  ) {
    if (maxBytes > 0) this.entries = new LRUCache({ maxSize: maxBytes, sizeCalculation: (entry) => entry.size });
  }

  /** The cached JSON answer for `key`, building and keeping it on a miss. */
  get(key: string, build: () => { json: string; headers?: Record<string, string> }): CachedResponse {
    let entry = this.entries?.get(key);
    if (!entry) {
      const { json, headers = {} } = build();
      const etag = createHash('sha1').update(this.version).update('\0').update(key).digest('base64url').slice(0, 22);
      // A new compressed variant makes the entry bigger: set it again so the budget sees it.
      entry = new CachedResponse(key, Buffer.from(json), { 'Content-Type': 'application/json', ...headers }, etag, (grown) => this.entries?.set(grown.key, grown));
      this.entries?.set(key, entry);
    }
    return entry;
  }

  /** The cached answer for `key` if it is still held; never builds. */
  peek(key: string): CachedResponse | undefined {
    return this.entries?.get(key);
  }
}
