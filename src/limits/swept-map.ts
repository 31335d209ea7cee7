/** What every swept entry has: `reset`, when its window ends, in epoch seconds (as koa-ratelimit keeps it). */
interface Entry {
  reset: number;
}

/**
 * A Map of counters swept of expired windows every `everyMs`, so that a flood of one-off
 * addresses does not grow it for ever. koa-ratelimit's memory driver must be given one Map
 * shared by every request: given none, it makes a new Map per request and limits nothing.
 *
 * @example
 * const counters = new SweptMap(60_000);
 * ratelimit({ driver: 'memory', db: counters.map, ... });
 * counters.stop(); // on shutdown
 */
export class SweptMap<T extends Entry = Entry> {
  readonly map = new Map<string, T>();
  private readonly timer: NodeJS.Timeout;

  constructor(everyMs: number) {
    this.timer = setInterval(() => this.sweep(), everyMs);
    this.timer.unref();
  }

  /** Deletes every entry whose window has ended; returns how many went. */
  sweep(nowMs = Date.now()): number {
    let removed = 0;
    for (const [key, entry] of this.map) {
      if (entry.reset * 1000 < nowMs) {
        this.map.delete(key);
        removed++;
      }
    }
    return removed;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
