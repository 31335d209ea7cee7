import type { Router } from '@koa/router';
import type { Context } from 'koa';
import { jsonBody } from '../http/json-body.ts';
import { send } from '../http/send.ts';
import type { GraphQLEndpoint, GraphQLOptions } from './endpoint.ts';

export type { GraphQLOptions } from './endpoint.ts';

/**
 * `GET` and `POST /api/graphql`, and the schema's text at `/api/graphql/schema.graphql`. The
 * endpoint (graphql-js, graphql-http and the schema built from the JSON Schemas) is loaded by
 * the first GraphQL request, so a server that only answers REST reads never pays for it at boot.
 *
 * @example
 * graphqlRoutes(router, { served, cacheControl: 'public, max-age=300', maxPageSize: 50, limits, documentCacheBytes: 4 * 2 ** 20 });
 */
export function graphqlRoutes(router: Router, options: GraphQLOptions): void {
  let loading: Promise<GraphQLEndpoint> | undefined;
  const endpoint = () => (loading ??= import('./endpoint.ts').then(({ graphqlEndpoint }) => graphqlEndpoint(options)));
  const answer = async (ctx: Context) => (await endpoint()).answer(ctx);

  router.get('/api/graphql/schema.graphql', async (ctx) => {
    const { schemaText } = await endpoint();
    const entry = options.served.current.cache.get('graphql schema', () => ({ json: schemaText(), headers: { 'Content-Type': 'text/plain; charset=utf-8' } }));
    send(ctx, entry, options.cacheControl);
  });
  router.get('/api/graphql', answer);
  // A body may hold the query and its variables: more than a document, less than twice.
  router.post('/api/graphql', jsonBody({ maxBytes: 2 * options.limits.maxDocumentBytes }), answer);
}
