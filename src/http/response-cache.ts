import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Context } from 'koa';
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
    readonly body: Buffer,
    readonly headers: Readonly<Record<string, string>>,
    /** Names the bytes without reading them: they depend only on the cache key and data version. */
    readonly etag: string,
  ) {}

  /** The body in `encoding` (`br`, `gzip` or `identity`), compressing once. */
  bytes(encoding: string): Buffer {
    if (encoding === 'identity') return this.body;
    let bytes = this.encoded.get(encoding);
    if (!bytes) {
      bytes = encoding === 'br' ? brotliCompressSync(this.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }) : gzipSync(this.body);
      this.encoded.set(encoding, bytes);
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
 * query, language). Bounded by bytes: least recently used entries go first.
 */
export class ResponseCache {
  private readonly entries?: LRUCache<string, CachedResponse>;

  constructor(
    maxBytes: number,
    readonly version: string,
  ) {
    if (maxBytes > 0) this.entries = new LRUCache({ maxSize: maxBytes, sizeCalculation: (entry) => entry.size });
  }

  /** The cached answer for `key`, building and keeping it on a miss. */
  get(key: string, build: () => { json: string; headers?: Record<string, string> }): CachedResponse {
    let entry = this.entries?.get(key);
    if (!entry) {
      const { json, headers = {} } = build();
      const etag = createHash('sha1').update(this.version).update('\0').update(key).digest('base64url').slice(0, 22);
      entry = new CachedResponse(Buffer.from(json), headers, etag);
      this.entries?.set(key, entry);
    }
    return entry;
  }
}

/**
 * Sends a cached answer: negotiates gzip or brotli, sets its ETag and `Cache-Control`, and
 * answers 304 when `If-None-Match` already holds it. `cacheControl: 'no-store'` (random
 * endpoints) sends no ETag.
 */
export function send(ctx: Context, entry: CachedResponse, cacheControl: string): void {
  ctx.set(entry.headers);
  let encoding = 'identity';
  if (entry.body.length >= COMPRESS_FROM) {
    ctx.vary('Accept-Encoding');
    encoding = (ctx.acceptsEncodings('br', 'gzip', 'identity') || 'identity') as string;
  }
  ctx.set('Cache-Control', cacheControl);
  ctx.status = 200;
  if (cacheControl !== 'no-store') {
    ctx.set('ETag', encoding === 'identity' ? `"${entry.etag}"` : `"${entry.etag}-${encoding}"`);
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
  }
  if (encoding !== 'identity') ctx.set('Content-Encoding', encoding);
  ctx.compress = false; // already negotiated and encoded here
  ctx.body = entry.bytes(encoding);
  ctx.set('Content-Type', 'application/json');
}
