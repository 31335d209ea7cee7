/** Slots a filter has unless told otherwise: 256 KB, about a minute of a flood of new URLs. */
export const DEFAULT_SLOTS = 2 ** 16;

/** FNV-1a over the UTF-16 code units, never 0 (0 marks an empty slot). */
function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >>> 0 || 1;
}

/**
 * Tells a key offered for the second time from one offered once, in a fixed table of hashes:
 * what is kept only on its second request (as nginx's `proxy_cache_min_uses 2`), so a stream of
 * URLs each asked once never takes memory, nor leaves garbage for the collector, while a URL
 * asked again is kept from then on. A newer key may take an older one's slot (that key then
 * waits one more request), and two keys may share a hash (one is kept a request early): both
 * only move when something is kept, never what is answered.
 *
 * @example
 * const repeats = new RepeatFilter();
 * repeats.seenBefore('/api/v1/actors'); // false: remembered
 * repeats.seenBefore('/api/v1/actors'); // true
 */
export class RepeatFilter {
  private readonly slots: number;
  /**
   * Made at the first key offered: a server that has answered nothing holds none (its response cache, the fast path and
   * GraphQL each have a filter).
   */
  private hashes?: Uint32Array;

  /** `slots` is rounded up to a power of two; each takes 4 bytes. */
  constructor(slots = DEFAULT_SLOTS) {
    this.slots = 2 ** Math.ceil(Math.log2(Math.max(slots, 1)));
  }

  /** Whether `key` was offered before (and still holds its slot); otherwise remembers it. */
  seenBefore(key: string): boolean {
    const hashes = (this.hashes ??= new Uint32Array(this.slots));
    const hash = hashOf(key);
    const slot = hash & (this.slots - 1);
    if (hashes[slot] === hash) return true;
    hashes[slot] = hash;
    return false;
  }
}
