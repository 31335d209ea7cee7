/**
 * Runs async tasks one at a time, in the order they were queued. A failed task rejects its
 * own promise and does not stop the tasks behind it.
 *
 * @example
 * const queue = new WriteQueue();
 * await Promise.all([queue.run(writeA), queue.run(writeB)]); // writeB starts after writeA settles
 */
export class WriteQueue {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
