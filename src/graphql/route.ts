import type { Context } from 'koa';
import { jsonBody } from '../http/json-body.ts';
import { countsIn, type RouteTable } from '../http/routing.ts';
import { servedTo } from '../http/caller-view.ts';
import { send } from '../http/send.ts';
import { HttpError } from '../lib/http-error.ts';
import type { GraphQLEndpoint, GraphQLOptions } from './endpoint.ts';
import { loadGraphiQL, type GraphiQLPage } from './graphiql-page.ts';
import { wantsGraphiQL } from './wants-graphiql.ts';

export type { GraphQLOptions } from './endpoint.ts';

/**
 * Whether a Koa request asks for GraphiQL (`wantsGraphiQL`); routing asks it of every method on the path, to tell the
 * page (free) from a query (counted).
 */
const asksGraphiQL = (ctx: Context) =>
  wantsGraphiQL(ctx.method, ctx.query.query !== undefined, ctx.get('Accept') || undefined);

/**
 * `GET` and `POST /api/graphql`, the schema's text at `/api/graphql/schema.graphql`, and
 * GraphiQL for a browser opening `/api/graphql` (its script and stylesheet beside it, served
 * by this service). The page and its files count in no budget, like the API reference; the
 * queries it sends count as any other. The endpoint (graphql-js, graphql-http and the schema
 * built from the JSON Schemas) is loaded by the first GraphQL request, so a server that only
 * answers REST reads never pays for it at boot.
 *
 * @example
 * graphqlRoutes(router, {
 *   served,
 *   cacheControl: 'public, max-age=300',
 *   maxPageSize: 50,
 *   limits,
 *   costlyQueue: 8,
 *   documentCacheBytes: 4 * 2 ** 20,
 * });
 */
export function graphqlRoutes(router: RouteTable, options: GraphQLOptions): void {
  let loading: Promise<GraphQLEndpoint> | undefined;
  const endpoint = () => (loading ??= import('./endpoint.ts').then(({ graphqlEndpoint }) => graphqlEndpoint(options)));
  let graphiql: GraphiQLPage | undefined;
  const page = () => {
    graphiql ??= loadGraphiQL();
    if (!graphiql)
      throw new HttpError(503, 'GraphiQL has not been built in this copy of the service: run `npm run build`');
    return graphiql;
  };
  const free = countsIn('free');

  router.get('/api/graphql/schema.graphql', async (ctx) => {
    const { schemaText } = await endpoint();
    const entry = servedTo(ctx, options).cache.get('graphql schema', () => ({
      json: schemaText(),
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    }));
    send(ctx, entry, options.cacheControl);
  });
  router.get('/api/graphql/:file', free, (ctx) => {
    const { files } = page();
    const file = files.get(String(ctx.params.file));
    if (!file)
      throw new HttpError(404, `GraphiQL has no file '${ctx.params.file}'; it has ${[...files.keys()].join(', ')}`);
    send(ctx, file, options.cacheControl);
  });
  router.get('/api/graphql', countsIn('free', asksGraphiQL), async (ctx) => {
    if (!asksGraphiQL(ctx)) return (await endpoint()).answer(ctx);
    ctx.vary('Accept');
    send(ctx, page().page, options.cacheControl);
  });
  // A body may hold the query and its variables: more than a document, less than twice.
  router.post('/api/graphql', jsonBody({ maxBytes: 2 * options.limits.maxDocumentBytes }), async (ctx) =>
    (await endpoint()).answer(ctx),
  );
}
