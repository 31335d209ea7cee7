type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * JSON Merge Patch (RFC 7396): a key of `patch` replaces the target's, `null` removes it, an
 * object merges into an object, anything else (lists too) replaces whole. Results are built
 * with `Object.fromEntries`, which defines own properties: a `__proto__` key in a patch is
 * data like any other (the schema then names it), never the prototype of what is built.
 *
 * @example
 * mergePatch({ title: 'A', images: ['x'] }, { title: 'B', images: null }); // { title: 'B' }
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const base = isObject(target) ? target : {};
  const entries = new Map<string, unknown>(Object.entries(base));
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) entries.delete(key);
    else entries.set(key, mergePatch(entries.get(key), value));
  }
  return Object.fromEntries(entries) as Json;
}

/** How deeply a JSON value nests (a scalar is 0, `[1]` is 1). */
export function depthOf(value: unknown, limit: number): number {
  if (typeof value !== 'object' || value === null) return 0;
  if (limit <= 0) return 1;
  let deepest = 0;
  for (const item of Object.values(value)) deepest = Math.max(deepest, depthOf(item, limit - 1));
  return deepest + 1;
}
