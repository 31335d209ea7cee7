import type { Context } from 'koa';
import type { AuthState } from '../http/bearer.ts';
import type { CatalogWriter } from '../http/catalog-writer.ts';
import type { ChangeFeed } from '../changes/feed.ts';
import { readerChanges } from '../served/sandbox-views.ts';
import { servedTo } from '../http/caller-view.ts';
import { answeredFromBody } from '../http/fast-post.ts';
import { pictureOrigin } from '../http/origin.ts';
import { koaHeaders } from '../http/read-exchange.ts';
import { send } from '../http/send.ts';
import { acceptedLanguage } from '../reads/request-query.ts';
import type { CachedResponse } from '../served/cached-response.ts';
import type { ServedCatalog } from '../served/served-catalog.ts';
import { answerKey } from './answer-key.ts';
import type { MutationContext } from './context.ts';
import { graphqlEngine, type GraphQLEngineOptions } from './engine.ts';

/** What the GraphQL endpoint serves, and how. */
export interface GraphQLOptions extends GraphQLEngineOptions {
  served: ServedCatalog;
  /** `Cache-Control` of a GET's answer, as the catalog's REST reads send it. */
  cacheControl: string;
  /** The base URL pictures are served under; unset: the address each request used. */
  publicUrl?: string;
  /** What the mutations write through, as the REST write routes do; none when the server takes no writes. */
  writer?: CatalogWriter;
  /** The change feed the `changes` field reads. */
  feed?: ChangeFeed;
  /** Applies what other instances appended, before a cursor ahead of this instance is judged. */
  feedSync?: () => Promise<void>;
}

/** The mutations' side of a request: the writer and the caller its token names. */
function mutationContext(ctx: Context, writer: CatalogWriter | undefined): MutationContext {
  const caller = (ctx.state as AuthState).account;
  return { ...(writer ? { writer } : {}), ...(caller ? { caller } : {}) };
}

/** What the GraphQL routes call: the endpoint's answer and the schema's text. */
export interface GraphQLEndpoint {
  answer(ctx: Context): Promise<void>;
  schemaText(): string;
}

/**
 * The endpoint behind `GET` and `POST /api/graphql`: the catalog's GraphQL engine
 * (`graphqlEngine`) for a Koa request. A successful answer to a query (never a mutation's, nor
 * one asking for a random record) is kept in the catalog version's response cache like a REST
 * read, by everything it depends on (`answerKey`): a repeated request is answered from it
 * without a costly turn or execution, a GET with a strong ETag, 304 and `Cache-Control: public`
 * (and the fast path learns it), a POST with `no-store`. A write serves a new version with an
 * empty cache.
 *
 * @example
 * const endpoint = graphqlEndpoint({
 *   served,
 *   cacheControl: 'public, max-age=300',
 *   maxPageSize: 50,
 *   limits,
 *   costlyQueue: 8,
 *   documentCacheBytes: 4 * 2 ** 20,
 *   log,
 * });
 * router.get('/api/graphql', (ctx) => endpoint.answer(ctx));
 */
export function graphqlEndpoint(options: GraphQLOptions): GraphQLEndpoint {
  const engine = graphqlEngine(options);

  const answer = async (ctx: Context) => {
    const { catalog, cache } = servedTo(ctx, options);
    const preferred = acceptedLanguage(koaHeaders(ctx), catalog);
    const origin = pictureOrigin(ctx, options.publicUrl, catalog);
    ctx.vary('Accept');
    const post = ctx.method === 'POST';
    const text = post ? (ctx.request as { rawBody?: string }).rawBody : ctx.querystring;
    const key = answerKey({ method: ctx.method, text, accept: ctx.get('Accept') }, preferred, origin);
    const cacheControl = post ? 'no-store' : options.cacheControl;
    const sendKept = (entry: CachedResponse) => {
      send(ctx, entry, cacheControl);
      // The fast path may replay a POST's answer to the same body (and URL, Content-Type and headers in Vary).
      if (post) answeredFromBody(ctx, (ctx.request as { rawBody: string }).rawBody);
    };
    // A kept answer costs a lookup: no costly turn, no execution.
    const kept = key === undefined ? undefined : cache.peek(key);
    if (kept) return sendKept(kept);
    const answered = await engine.run({
      method: ctx.method,
      url: ctx.url,
      headers: ctx.req.headers,
      body: post ? (ctx.request as { body?: unknown }).body : undefined,
      catalog,
      preferred,
      origin,
      mutations: mutationContext(ctx, options.writer),
      version: () => servedTo(ctx, options).version,
      ...(options.feed
        ? {
            changes: {
              feed: options.feed,
              own: readerChanges(options.writer?.sandboxes, (ctx.state as AuthState).account),
              ...(options.feedSync ? { sync: options.feedSync } : {}),
            },
          }
        : {}),
    });
    if (answered.keep && key !== undefined)
      return sendKept(
        cache.get(key, () => ({ json: answered.text, headers: { 'Content-Type': answered.headers['content-type']! } })),
      );
    ctx.status = answered.status;
    ctx.set(answered.headers);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = answered.text;
  };

  return { answer, schemaText: engine.schemaText };
}
