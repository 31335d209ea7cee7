import { createHook } from 'node:async_hooks';

/** The tick object held for the life of the process (`anchorTickObject`). */
const held: object[] = [];

/**
 * Holds one of the objects `process.nextTick` queues for the life of the process, so that the
 * hidden classes (maps) its object literal goes through are never collected.
 *
 * Why: that literal has computed keys, and V8 (Node 20 and 26 alike) remembers, weakly, the map
 * each of them met. A full collection taken while no tick object is alive (an idle server)
 * collects those maps; the next `nextTick` meets a map other than the one remembered, V8 marks
 * the site megamorphic for good, and from then on every `nextTick` defines its properties
 * through the runtime: 0.4 to 0.8 µs a call more (measured), and a request makes several.
 * Holding one object keeps its map, and the chain of maps before it, alive.
 *
 * @returns the object held, or undefined when `nextTick` queued none that hooks see
 */
export function anchorTickObject(): object | undefined {
  if (held[0]) return held[0];
  const hook = createHook({
    init(_id, type, _trigger, resource: object) {
      if (type === 'TickObject' && !held.length) held.push(resource);
    },
  }).enable();
  try {
    process.nextTick(() => {});
  } finally {
    hook.disable();
  }
  return held[0];
}
