import { POSTMAN_API, POSTMAN_TOKEN_EVERYWHERE } from './adapters.ts';
import type { CollectionPlan, PlannedRequest } from './plan.ts';
import { preRequestScript, testScript } from './scripts.ts';

/** A Postman script event: its lines, run by newman and the Postman app. */
const event = (listen: 'test' | 'prerequest', script: string, api = POSTMAN_API) => ({
  listen,
  script: { type: 'text/javascript', exec: `${api}\n${script}`.split('\n') },
});

function item(request: PlannedRequest): Record<string, unknown> {
  const headers = [
    ...(request.body !== undefined ? [{ key: 'Content-Type', value: 'application/json' }] : []),
    ...(request.bearer ? [{ key: 'Authorization', value: 'Bearer {{token}}' }] : []),
  ];
  const before = preRequestScript(request);
  return {
    name: request.name,
    event: [...(before ? [event('prerequest', before)] : []), event('test', testScript(request))],
    // A 302 is what the request shows, not the page it leads to.
    protocolProfileBehavior: { followRedirects: false },
    request: {
      method: request.method,
      header: headers,
      ...(request.body !== undefined ? { body: { mode: 'raw', raw: request.body } } : {}),
      url: `{{baseUrl}}${request.path}`,
      description: `${request.summary}\n\n\`${request.method} ${request.template}\``,
    },
  };
}

/**
 * The collection as a Postman Collection v2.1 (what the Postman app imports and `newman run`
 * runs): a folder per tag, collection variables `baseUrl`, `token` and the sign-in's.
 *
 * @example
 * JSON.stringify(postmanCollection(planCollection(doc)));
 */
export function postmanCollection(plan: CollectionPlan): Record<string, unknown> {
  const folders = new Map<string, PlannedRequest[]>();
  for (const request of plan.requests) folders.set(request.folder, [...(folders.get(request.folder) ?? []), request]);
  return {
    info: {
      name: plan.title,
      description: plan.description,
      schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
    },
    event: [event('prerequest', POSTMAN_TOKEN_EVERYWHERE, '// Once signed in, every request carries the token.')],
    item: [...folders].map(([name, requests]) => ({ name, item: requests.map(item) })),
    variable: Object.entries(plan.variables).map(([key, value]) => ({ key, value, type: 'string' })),
  };
}
