import { exampleOf, resolve, sketch, type JsonObject, type JsonValue } from './sketch.ts';

/** What a request must answer: a status; a curator's status or another role's; a sign-up's. */
export type Expectation = { status: number } | { curator: number; other: number } | { register: true };

/** One request of a collection, the same in every format. */
export interface PlannedRequest {
  /** The operationId, or the name of a request of the collection's own (the curator's write). */
  name: string;
  folder: string;
  summary: string;
  method: string;
  /** The path as the document names it, `{uuid}` and all. */
  template: string;
  /** The path with its parameters filled (and its required query), `{{name}}` for a variable. */
  path: string;
  /** A JSON body, `{{name}}` standing for a variable. */
  body?: string;
  /** Whether it carries `Authorization: Bearer {{token}}`. */
  bearer: boolean;
  expect: Expectation;
  /** Variables set from the answer's fields, on success. */
  stores?: Record<string, string>;
}

/** The collection as every format writes it: its name, variables and requests in the order they run. */
export interface CollectionPlan {
  title: string;
  description: string;
  variables: Record<string, string>;
  requests: PlannedRequest[];
}

const SIGN_IN = 'Sign in';
const CURATOR_WRITE = 'Maintainer write';
const SIGN_OUT = 'Sign out';
const CREDENTIALS = '{"username":"{{username}}","password":"{{password}}"}';
const ACCOUNT_BODIES: Record<string, string> = {
  register:
    '{"first_name":"Collection","last_name":"Runner","username":"{{username}}",' +
    '"email":"{{username}}@example.org","password":"{{password}}"}',
  authenticate: CREDENTIALS,
  deleteAccount: CREDENTIALS,
};

const asObject = (value: JsonValue | undefined): JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};

/** The statuses an operation declares, numbers only, in order. */
const statuses = (operation: JsonObject): number[] =>
  Object.keys(asObject(operation.responses))
    .map(Number)
    .filter(Number.isInteger)
    .sort((a, b) => a - b);

/** Whether every way the operation may be called needs the bearer token (no anonymous `{}`). */
function needsToken(operation: JsonObject): boolean {
  const security = Array.isArray(operation.security) ? operation.security.map(asObject) : [];
  return security.length > 0 && security.every((entry) => 'bearerAuth' in entry);
}

/** The path filled from the parameters' examples; `missing` when one has none (the request then shows a 404). */
function fillPath(template: string, parameters: JsonObject[]): { path: string; missing: boolean } {
  let missing = false;
  let path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const parameter = parameters.find((p) => p.in === 'path' && p.name === name);
    const example = parameter && (parameter.example ?? exampleOf(asObject(parameter.schema)));
    if (example === undefined || example === null) missing = true;
    return encodeURIComponent(String(example ?? 'example'));
  });
  const query = parameters
    .filter((p) => p.in === 'query' && p.required === true)
    .map((p) => {
      const value = String(p.example ?? exampleOf(asObject(p.schema)) ?? '');
      return `${encodeURIComponent(String(p.name))}=${encodeURIComponent(value)}`;
    });
  if (query.length > 0) path += `?${query.join('&')}`;
  return { path, missing };
}

/** A JSON body: its example, else a sketch of its schema whose fields a GET of the same path names by example. */
function requestBody(doc: JsonObject, name: string, operation: JsonObject, item: JsonObject): string | undefined {
  if (ACCOUNT_BODIES[name]) return ACCOUNT_BODIES[name];
  const content = asObject(asObject(resolve(doc, operation.requestBody)).content);
  const media = asObject(content['application/json'] ?? Object.values(content)[0]);
  if (Object.keys(media).length === 0) return undefined;
  if (media.example !== undefined) return JSON.stringify(media.example);
  const body = sketch(doc, media.schema);
  const read = asObject(item.get);
  for (const parameter of (Array.isArray(read.parameters) ? read.parameters : []).map((p) =>
    asObject(resolve(doc, p)),
  )) {
    const example = parameter.example ?? exampleOf(asObject(parameter.schema));
    const field = String(parameter.name);
    if (typeof body === 'object' && body && !Array.isArray(body) && field in body && example !== undefined)
      body[field] = example;
  }
  return JSON.stringify(body);
}

/** The request of one operation, and what it answers as the collection runs it (a BASIC account's token). */
function planOperation(
  doc: JsonObject,
  template: string,
  method: string,
  operation: JsonObject,
  item: JsonObject = {},
): PlannedRequest {
  const name = String(operation.operationId ?? `${method}_${template}`);
  const parameters = [...(Array.isArray(operation.parameters) ? operation.parameters : [])].map((p) =>
    asObject(resolve(doc, p)),
  );
  const { path, missing } = fillPath(template, parameters);
  const declared = statuses(operation);
  const bearer = needsToken(operation);
  const success = declared.find((status) => status >= 200 && status < 400) ?? 200;
  const expect: Expectation =
    name === 'register'
      ? { register: true }
      : bearer && declared.includes(403)
        ? { status: 403 }
        : missing && declared.includes(404)
          ? { status: 404 }
          : { status: success };
  const folder = name === 'register' || name === 'authenticate' ? SIGN_IN : name === 'deleteAccount' ? SIGN_OUT : '';
  const tags = Array.isArray(operation.tags) ? operation.tags.map(String) : [];
  const body = requestBody(doc, name, operation, item);
  return {
    name,
    folder: folder || tags[0] || 'Other',
    summary: String(operation.summary ?? name),
    method: method.toUpperCase(),
    template,
    path,
    ...(body !== undefined ? { body } : {}),
    bearer,
    expect,
    ...(name === 'authenticate' ? { stores: { token: 'token', role: 'role' } } : {}),
  };
}

export { CURATOR_WRITE, SIGN_IN, SIGN_OUT, asObject, planOperation, statuses };
