// The typed client of the series catalog API (docs/clients.md): openapi-fetch over the types
// openapi-typescript generates from the server's OpenAPI document (./openapi.ts, written by
// `npm run client`). Every route, parameter, record and error is typed; filters are typed by
// the operators their field takes.
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './openapi.js';

export type { components, operations, paths } from './openapi.js';
export type { ClientOptions } from 'openapi-fetch';

/** A client of the catalog: `GET`, `POST`, `PATCH`, `DELETE`… of every documented route. */
export type CatalogClient = Client<paths>;

/** A schema of the document by name: a record as served (`'Actor'`), a write body (`'ActorCreate'`)… */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** The one shape of every error answer: `code`, `status`, `method`, `message`… */
export type CatalogError = components['schemas']['Error'];

/** What `createCatalogClient` takes: openapi-fetch's options, and a bearer token for every request. */
export interface CatalogClientOptions extends ClientOptions {
  /** Sent as `Authorization: Bearer <token>` (a token from `POST /api/v1/auth/authenticate`). */
  token?: string;
}

/**
 * A typed client of the catalog served at `baseUrl` (the server's address, without `/api`).
 * Answers are `{ data, error, response }`: `data` typed by the route's success answer, `error`
 * by its error answers (the one error shape). Every request asks for JSON (`Accept`) unless
 * it says otherwise, and carries the token when one is given.
 *
 * @example
 * const catalog = createCatalogClient({ baseUrl: 'http://localhost:3000' });
 * const { data } = await catalog.GET('/api/v1/actors', { params: { query: { gender: ':1,2', size: 5 } } });
 * data?.map((actor) => actor.first_name);
 */
export function createCatalogClient({ token, ...options }: CatalogClientOptions = {}): CatalogClient {
  const client = createClient<paths>(options);
  client.use({
    onRequest: ({ request }) => {
      // JSON, which the types describe, where a route also has a page for browsers or an event stream.
      if (!request.headers.has('Accept')) request.headers.set('Accept', 'application/json');
      if (token && !request.headers.has('Authorization')) request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  });
  return client;
}
