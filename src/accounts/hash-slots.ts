import { HttpError } from '../lib/http-error.ts';

/** How many password hashes may run at once, and how many may wait for a turn. */
export interface HashSlotOptions {
  concurrent: number;
  queued: number;
}

/**
 * A bound on concurrent password hashes. scrypt runs on libuv's thread pool (4 threads by
 * default), which file-system calls and DNS lookups also need; with at most `concurrent`
 * hashes at once, the other threads stay free, so nothing that is not itself hashing waits
 * behind a burst of sign-ins. Beyond `concurrent`, hashes wait their turn in order; beyond
 * `queued` waiting, the request is refused with a 503 and `Retry-After`.
 *
 * @example
 * const slots = new HashSlots({ concurrent: 2, queued: 64 });
 * const hash = await slots.run(() => hashPassword(password, params));
 */
export class HashSlots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly options: HashSlotOptions) {}

  async run<T>(hash: () => Promise<T>): Promise<T> {
    if (this.running >= this.options.concurrent) {
      if (this.waiting.length >= this.options.queued) {
        // Each hash takes a fraction of a second: by then the queue will have moved on.
        const after = String(Math.max(1, Math.ceil(this.waiting.length / this.options.concurrent / 3)));
        throw new HttpError(
          503,
          `Too many sign-ins in progress (${this.running} hashing, ${this.waiting.length} waiting); retry in ` +
            `${after} s`,
          {
            'Retry-After': after,
          },
        );
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await hash();
    } finally {
      // Hand the slot straight to the next in line, or free it.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
