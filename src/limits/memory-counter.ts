import { verdictOf, type Verdict, type WindowCounter } from './window-counter.ts';

/** Keys one generation may hold: two generations take at most about 10 MB. */
export const MAX_KEYS_PER_GENERATION = 32_768;

interface Entry {
  count: number;
  /** End of the key's window, epoch ms. */
  reset: number;
}

/**
 * A window counter in this process. Keys live in two generations of one window each: a key
 * is written into the current one, and when a window has passed the older generation is
 * dropped whole. Every entry in it was created at least one window earlier, so it had
 * already expired. Expiry costs one assignment whatever the number of keys, so a flood of
 * one-off addresses never makes the event loop pause to sweep them. A generation holds at
 * most `maxKeys` keys (about 160 bytes each): past that it is rotated early, so memory stays
 * bounded whatever comes, and the keys of the generation dropped early start over (a flood
 * of new clients can end the windows of older ones sooner, never lengthen them).
 *
 * @example
 * const anonymous = new MemoryCounter(60, 60_000);
 * anonymous.hit('203.0.113.7'); // { allowed: true, limit: 60, remaining: 59, reset: 1795... }
 */
export class MemoryCounter implements WindowCounter {
  private current = new Map<string, Entry>();
  private previous = new Map<string, Entry>();
  private rotateAt: number;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = MAX_KEYS_PER_GENERATION,
  ) {
    this.rotateAt = now() + windowMs;
  }

  /** Keys held (both generations), expired ones included until their generation goes. */
  get size(): number {
    return this.current.size + this.previous.size;
  }

  hit(key: string): Verdict {
    const now = this.now();
    const entry = this.live(key, now) ?? this.start(key, now);
    entry.count++;
    return verdictOf(entry.count, this.limit, entry.reset);
  }

  peek(key: string): Verdict {
    const now = this.now();
    const entry = this.live(key, now);
    return entry ? verdictOf(entry.count, this.limit, entry.reset) : verdictOf(0, this.limit, now + this.windowMs);
  }

  /** The key's entry if its window is still running. */
  private live(key: string, now: number): Entry | undefined {
    if (now >= this.rotateAt) this.rotate(now);
    const entry = this.current.get(key) ?? this.previous.get(key);
    return entry && entry.reset > now ? entry : undefined;
  }

  private start(key: string, now: number): Entry {
    const entry = { count: 0, reset: now + this.windowMs };
    if (this.current.size >= this.maxKeys) this.rotate(now);
    this.previous.delete(key);
    this.current.set(key, entry);
    return entry;
  }

  private rotate(now: number): void {
    // After two windows without a request both generations are stale: start clean.
    this.previous = now >= this.rotateAt + this.windowMs ? new Map() : this.current;
    this.current = new Map();
    this.rotateAt = now + this.windowMs;
  }
}
