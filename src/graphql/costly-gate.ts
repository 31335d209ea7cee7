import { afterPoll } from '../lib/after-poll.ts';

/**
 * Costly GraphQL work, one at a time (running a costly operation, checking a large new query
 * text): each starts only after the event loop has served what was already waiting (REST reads
 * among it), so however many a client sends, other requests wait for at most one, and costly
 * work gets one turn per pass of the event loop however many clients send it; beyond `waiting`
 * queued, `enter` refuses (the caller answers 503 with Retry-After). The work is synchronous, so
 * running two at once would not be faster, only hold everyone else up longer.
 *
 * @example
 * const gate = new CostlyGate(8);
 * const leave = await gate.enter(); // undefined: full
 * try { execute(…) } finally { leave?.(); }
 */
export class CostlyGate {
  private running = false;
  private readonly queue: (() => void)[] = [];

  constructor(private readonly waiting: number) {}

  /** Waits for the turn and returns what ends it, or undefined at once when the queue is full. */
  async enter(): Promise<(() => void) | undefined> {
    if (this.running) {
      if (this.queue.length >= this.waiting) return undefined;
      // The slot is handed over by `leave`, never released in between.
      await new Promise<void>((resolve) => this.queue.push(resolve));
    }
    this.running = true;
    await afterPoll();
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = this.queue.shift();
      if (next) next();
      else this.running = false;
    };
  }
}
