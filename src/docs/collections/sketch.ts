/** A JSON value (an OpenAPI document is read as one). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** An object of the document. */
export type JsonObject = { [key: string]: JsonValue };

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What a `$ref` inside the document points at (`#/components/...`), or the value itself.
 *
 * @example
 * resolve(doc, { $ref: '#/components/parameters/Page' }); // the Page parameter
 */
export function resolve(doc: JsonObject, value: JsonValue | undefined): JsonValue | undefined {
  if (!isObject(value) || typeof value.$ref !== 'string' || !value.$ref.startsWith('#/')) return value;
  let found: JsonValue | undefined = doc;
  for (const part of value.$ref.slice(2).split('/')) found = isObject(found) ? found[part] : undefined;
  return found === undefined ? undefined : resolve(doc, found);
}

/** The first example a schema or parameter gives (`example`, `examples[0]`, `default`, `enum[0]`). */
export function exampleOf(value: JsonValue | undefined): JsonValue | undefined {
  if (!isObject(value)) return undefined;
  if (value.example !== undefined) return value.example;
  if (Array.isArray(value.examples) && value.examples.length > 0) return value.examples[0];
  if (value.default !== undefined) return value.default;
  if (Array.isArray(value.enum) && value.enum.length > 0) return value.enum[0];
  return undefined;
}

/**
 * A value a schema accepts, for a request body: its example when it has one, else its required
 * fields filled by type (a string `example`, a number at its minimum, the first of a list).
 *
 * @example
 * sketch(doc, { type: 'object', required: ['name'], properties: { name: { type: 'string' } } }); // { name: 'example' }
 */
export function sketch(doc: JsonObject, schema: JsonValue | undefined, depth = 0): JsonValue {
  const resolved = resolve(doc, schema);
  if (!isObject(resolved) || depth > 6) return null;
  const example = exampleOf(resolved);
  if (example !== undefined) return example;
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const choices = resolved[key];
    if (Array.isArray(choices) && choices.length > 0) return sketch(doc, choices[0], depth + 1);
  }
  const type = Array.isArray(resolved.type) ? resolved.type[0] : resolved.type;
  if (type === 'object' || isObject(resolved.properties)) {
    const properties = isObject(resolved.properties) ? resolved.properties : {};
    const required = Array.isArray(resolved.required) ? resolved.required.map(String) : [];
    return Object.fromEntries(required.map((name) => [name, sketch(doc, properties[name], depth + 1)]));
  }
  if (type === 'array') return [sketch(doc, resolved.items, depth + 1)];
  if (type === 'integer' || type === 'number') return typeof resolved.minimum === 'number' ? resolved.minimum : 1;
  if (type === 'boolean') return true;
  if (type === 'null') return null;
  return 'example';
}
