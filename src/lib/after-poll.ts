/**
 * Resolves once the event loop has served what was waiting: two turns of `setImmediate` in
 * Node (the second comes after it has polled for I/O), a task of its own in a browser's worker,
 * which has no `setImmediate`.
 */
export function afterPoll(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof setImmediate === 'function') setImmediate(() => setImmediate(resolve));
    else setTimeout(resolve, 0);
  });
}
