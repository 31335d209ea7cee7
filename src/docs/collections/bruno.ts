import { BRUNO_API, BRUNO_TOKEN_EVERYWHERE } from './adapters.ts';
import type { CollectionPlan, PlannedRequest } from './plan.ts';
import { preRequestScript, testScript } from './scripts.ts';

/** Ids as Bruno's schema wants them (21 letters or digits), numbered in the collection's order. */
function ids(): () => string {
  let next = 0;
  return () => `br${String(++next).padStart(19, '0')}`;
}

function request(request: PlannedRequest, seq: number, uid: () => string): Record<string, unknown> {
  const before = preRequestScript(request);
  const header = (name: string, value: string) => ({ uid: uid(), name, value, enabled: true });
  return {
    uid: uid(),
    type: 'http-request',
    name: request.name,
    seq,
    // A 302 is what the request shows, not the page it leads to; the URL is sent as written (already encoded).
    settings: { encodeUrl: false, followRedirects: false },
    request: {
      url: `{{baseUrl}}${request.path}`,
      method: request.method,
      headers: [
        ...(request.body !== undefined ? [header('Content-Type', 'application/json')] : []),
        ...(request.bearer ? [header('Authorization', 'Bearer {{token}}')] : []),
      ],
      params: [],
      auth: { mode: 'none' },
      body: request.body !== undefined ? { mode: 'json', json: request.body } : { mode: 'none' },
      script: { req: before ? `${BRUNO_API}\n${before}` : null, res: null },
      vars: { req: [], res: [] },
      assertions: [],
      tests: `${BRUNO_API}\n${testScript(request)}`,
      docs: `${request.summary}\n\n\`${request.method} ${request.template}\``,
    },
  };
}

/**
 * The collection as Bruno's collection JSON: what the Bruno app imports (Import collection,
 * Bruno collection) and what `bru import … --output-file` writes. `bru run` runs a folder of
 * files; @usebruno/cli writes that folder from this object (createCollectionFromBrunoObject).
 * A folder per tag, numbered in the order they run; the variables are the collection's.
 *
 * @example
 * JSON.stringify(brunoCollection(planCollection(doc)));
 */
export function brunoCollection(plan: CollectionPlan): Record<string, unknown> {
  const uid = ids();
  const folders = new Map<string, PlannedRequest[]>();
  for (const item of plan.requests) folders.set(item.folder, [...(folders.get(item.folder) ?? []), item]);
  return {
    version: '1',
    uid: uid(),
    name: plan.title,
    items: [...folders].map(([name, requests], index) => ({
      uid: uid(),
      type: 'folder',
      name,
      seq: index + 1,
      root: { meta: { name, seq: index + 1 } },
      items: requests.map((item, at) => request(item, at + 1, uid)),
    })),
    environments: [],
    root: {
      request: {
        script: { req: BRUNO_TOKEN_EVERYWHERE, res: null },
        vars: {
          req: Object.entries(plan.variables).map(([name, value]) => ({ uid: uid(), name, value, enabled: true })),
        },
      },
      docs: plan.description,
      meta: { name: plan.title },
    },
    brunoConfig: { version: '1', name: plan.title, type: 'collection', ignore: ['node_modules', '.git'] },
  };
}
