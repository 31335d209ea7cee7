import {
  asObject,
  CURATOR_WRITE,
  planOperation,
  SIGN_IN,
  SIGN_OUT,
  statuses,
  type CollectionPlan,
  type PlannedRequest,
} from './plan.ts';
import { DEFAULT_PASSWORD } from './scripts.ts';
import { sketch, type JsonObject } from './sketch.ts';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Every operation of the document, as the collection runs it. */
function operations(doc: JsonObject): PlannedRequest[] {
  const planned: PlannedRequest[] = [];
  for (const [template, item] of Object.entries(asObject(doc.paths)))
    for (const method of METHODS) {
      const operation = asObject(asObject(item)[method]);
      if (Object.keys(operation).length > 0)
        planned.push(planOperation(doc, template, method, operation, asObject(item)));
    }
  return planned;
}

/**
 * A curator's write that leaves the catalog as it found it, as the account signed in: create a
 * record of the first family whose record has a PATCH and a DELETE (locations when there),
 * change it, delete it. A MAINTAINER or ADMIN gets 201, 200, 204; any other account 403 each time.
 */
function curatorWrite(doc: JsonObject, planned: PlannedRequest[]): PlannedRequest[] {
  const creates = planned.filter(
    (r) =>
      r.method === 'POST' &&
      r.template.startsWith('/api/v1/') &&
      planned.some((o) => o.method === 'DELETE' && o.template === `${r.template}/{uuid}`),
  );
  const create = creates.find((r) => r.template === '/api/v1/locations') ?? creates[0];
  if (!create) return [];
  const paths = asObject(doc.paths);
  const item = `${create.template}/{uuid}`;
  const success = (path: string, method: string) =>
    statuses(asObject(asObject(paths[path])[method])).find((s) => s >= 200 && s < 300) ?? 200;
  const patchSchema = asObject(
    asObject(asObject(asObject(asObject(paths[item]).patch).requestBody).content)['application/json'],
  );
  const patch = asObject(sketch(doc, asObject(patchSchema.schema)));
  const created = JSON.parse(create.body ?? '{}') as JsonObject;
  // A field the new record has, changed: a merge patch needs one.
  const field = Object.keys(created).find((key) => typeof created[key] === 'string');
  const change = field ? { [field]: `${String(created[field])} (changed)` } : patch;
  const record = (name: string, method: string, summary: string, body?: string): PlannedRequest => ({
    name,
    folder: CURATOR_WRITE,
    summary,
    method,
    template: item,
    path: `${create.template}/{{createdUuid}}`,
    ...(body !== undefined ? { body } : {}),
    bearer: true,
    expect: { curator: success(item, method.toLowerCase()), other: 403 },
  });
  return [
    {
      ...create,
      name: 'curatorCreate',
      folder: CURATOR_WRITE,
      summary: `Create a record (${create.template}), kept as createdUuid`,
      expect: { curator: success(create.template, 'post'), other: 403 },
      stores: { createdUuid: 'uuid' },
    },
    record('curatorPatch', 'PATCH', 'Change the record just created', JSON.stringify(change)),
    record('curatorDelete', 'DELETE', 'Delete the record just created'),
  ];
}

/** The example record of the curator's write before it creates one: the family's example uuid. */
function firstUuid(requests: PlannedRequest[], template: string): string {
  const read = requests.find((r) => r.method === 'GET' && r.template === template);
  return read ? decodeURIComponent(read.path.split('/').at(-1) ?? '') : '';
}

/**
 * The collection every format writes, from the OpenAPI document as served (its examples are
 * the served catalog's uuids): sign in (register, then authenticate, keeping the token and
 * role), every operation grouped by its first tag, the curator's write, then the account's
 * deletion. Each request knows the status it must answer as run by the account it signed up.
 *
 * @example
 * planCollection(doc).requests[0].name; // 'register'
 */
export function planCollection(doc: JsonObject, baseUrl = 'http://localhost:3000'): CollectionPlan {
  const planned = operations(doc);
  // Sign up before signing in; every other operation in the document's order; the account's deletion last.
  const order = (r: PlannedRequest) =>
    r.name === 'register' ? 0 : r.folder === SIGN_IN ? 1 : r.folder === SIGN_OUT ? 3 : 2;
  const main = [...planned].sort((a, b) => order(a) - order(b));
  const write = curatorWrite(doc, planned);
  const info = asObject(doc.info);
  const requests = [...main.filter((r) => order(r) < 3), ...write, ...main.filter((r) => order(r) === 3)];
  const created = write[0] ? firstUuid(planned, write[1]!.template) : '';
  return {
    title: String(info.title ?? 'API'),
    description:
      'Every operation of the OpenAPI document, each with a test of the status it answers as run. ' +
      'It signs up an account (or signs in `username` when given) and keeps its token; ' +
      'writes answer 403 to a BASIC account. ' +
      `"${CURATOR_WRITE}" creates, changes and deletes a record: a MAINTAINER runs "${SIGN_IN}" and it ` +
      'with `username` and `password` given.',
    variables: {
      baseUrl,
      token: '',
      role: '',
      username: '',
      usernameGiven: '',
      password: DEFAULT_PASSWORD,
      createdUuid: created,
    },
    requests,
  };
}
