import type { RouteTable } from '../../src/http/routing.ts';
import { Validator } from '@seriousme/openapi-schema-validator';
import formatsPlugin from 'ajv-formats';
import type Koa from 'koa';
import { createAjv } from '../../src/lib/ajv.ts';
import { json, type TestServer } from './http.ts';

// ajv-formats is CommonJS with a default export that NodeNext types as the module object.
const addFormats = formatsPlugin as unknown as typeof formatsPlugin.default;

export type Json = Record<string, any>;

/** The methods a document path item may have. */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The served document, checked against the OpenAPI schema, and a copy with every `$ref` resolved. */
export async function loadDocument(
  server: TestServer,
): Promise<{ doc: Json; resolved: Json; valid: { valid: boolean; errors?: unknown } }> {
  const doc = await json<Json>(await server.get('/api/openapi.json'));
  const validator = new Validator();
  const valid = await validator.validate(structuredClone(doc));
  return { doc, resolved: valid.valid ? validator.resolveRefs() : {}, valid };
}

/** `GET /api/v1/actors/{uuid}`-style lines for every operation of the document. */
export function documentedRoutes(doc: Json): string[] {
  return Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    Object.keys(item as Json)
      .filter((key) => METHODS.includes(key))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
}

/**
 * The same lines for every route of every router mounted on `app` (HEAD comes with GET and
 * is not a route of its own). Reads the routers the app really dispatches to.
 */
export function appRoutes(app: Koa): string[] {
  const tables = app.middleware.flatMap((m) => (m as Partial<ReturnType<RouteTable['middleware']>>).table ?? []);
  return tables.flatMap((table) =>
    table.listed.map(({ method, path }) => `${method} ${path.replace(/:(\w+)/g, '{$1}')}`),
  );
}

/** The resolved operation of `method path`, failing loudly when the document lacks it. */
export function operation(resolved: Json, method: string, path: string): Json {
  const found = resolved.paths?.[path]?.[method.toLowerCase()];
  if (!found) throw new Error(`the document has no ${method} ${path}`);
  return found as Json;
}

const ajv = createAjv();
addFormats(ajv, ['date-time']);

/** Problems of `value` against a (resolved) schema of the document; empty when it conforms. */
export function schemaProblems(schema: Json, value: unknown): string[] {
  const validate = ajv.compile(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
}
