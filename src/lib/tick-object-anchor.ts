import { executionAsyncResource } from 'node:async_hooks';

/** The tick object held for the life of the process, once taken (`anchorTickObject`). */
let anchored: Promise<object> | undefined;

/**
 * Holds one of the objects `process.nextTick` queues for the life of the process, so that the
 * hidden classes (maps) its object literal goes through are never collected.
 *
 * Why: that literal has computed keys, and V8 (Node 20 and 26 alike) remembers, weakly, the map
 * each of them met. A full collection taken while no tick object is alive (an idle server)
 * collects those maps; the next `nextTick` meets a map other than the one remembered, V8 marks
 * the site megamorphic for good, and from then on every `nextTick` defines its properties
 * through the runtime: 0.4 to 0.9 µs a call instead of about 0.1 (measured), and a request
 * makes several. Holding one object keeps its map, and the chain of maps before it, alive.
 *
 * The object is taken inside its own tick, where it is the execution's async resource. An
 * async hook would see it too, but enabling one installs V8's promise hooks, and the first
 * promise hook ever installed turns off TurboFan's inlining of promises and async functions for
 * the rest of the process.
 *
 * @returns the object held, once its tick has run
 */
export function anchorTickObject(): Promise<object> {
  return (anchored ??= new Promise((resolve) => process.nextTick(() => resolve(executionAsyncResource()))));
}
