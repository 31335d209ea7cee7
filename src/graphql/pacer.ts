import { afterPoll } from '../lib/after-poll.ts';

/**
 * Cuts one request's execution into slices: once the current slice has run `sliceMs`, the
 * next link resolved waits for the event loop to serve what arrived meanwhile (REST reads, other
 * clients), then a new slice starts. graphql-js executes synchronously otherwise, so a costly
 * query would hold every other request for its whole run.
 *
 * @example
 * const pacer = new Pacer(5);
 * resolve: (parent) => pacer.pace(parent.follow(href)); // the record, or a promise of it after a pause
 */
export class Pacer {
  private sliceStart = performance.now();
  private pause: Promise<void> | undefined;

  constructor(private readonly sliceMs: number) {}

  pace<T>(value: T): T | Promise<T> {
    if (!this.pause && performance.now() - this.sliceStart < this.sliceMs) return value;
    this.pause ??= afterPoll().then(() => {
      this.pause = undefined;
      this.sliceStart = performance.now();
    });
    return this.pause.then(() => value);
  }
}
