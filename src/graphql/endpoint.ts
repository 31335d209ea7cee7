import { getOperationAST, type GraphQLSchema } from 'graphql';
import { createHandler, type Request as GraphQLRequest } from 'graphql-http';
import type { Context } from 'koa';
import type { AuthState } from '../http/bearer.ts';
import type { CatalogWriter } from '../http/catalog-writer.ts';
import type { IncidentLog } from '../http/incident.ts';
import { pictureOrigin } from '../http/origin.ts';
import { koaHeaders } from '../http/read-exchange.ts';
import { acceptedLanguage } from '../reads/request-query.ts';
import { servedTo } from '../http/caller-view.ts';
import { answeredFromBody } from '../http/fast-post.ts';
import { send } from '../http/send.ts';
import type { CachedResponse } from '../served/cached-response.ts';
import type { ServedCatalog } from '../served/served-catalog.ts';
import { HttpError } from '../lib/http-error.ts';
import { admit } from './admission.ts';
import { answerKey } from './answer-key.ts';
import { CostlyGate } from './costly-gate.ts';
import { Pacer } from './pacer.ts';
import { DocumentCache } from './documents.ts';
import { withRestStatus } from './error-status.ts';
import { withIncidentsReported } from './incidents.ts';
import type { GraphQLLimits } from './limits.ts';
import type { MutationContext } from './context.ts';
import type { GraphQLContext } from './context.ts';
import { catalogSchema, schemaText } from './schema.ts';

/** What the GraphQL endpoint serves, and how. */
export interface GraphQLOptions {
  served: ServedCatalog;
  /** `Cache-Control` of a GET's answer, as the catalog's REST reads send it. */
  cacheControl: string;
  /** Largest page a list answers with. */
  maxPageSize: number;
  /** The base URL pictures are served under; unset: the address each request used. */
  publicUrl?: string;
  limits: GraphQLLimits;
  /** Costly operations that may wait for their turn (`CostlyGate`); the next is refused with 503. */
  costlyQueue: number;
  /** Memory for parsed and validated query texts. */
  documentCacheBytes: number;
  /** Where an error no resolver expected is logged, with the request id its answer quotes. */
  log: IncidentLog;
  /** What the mutations write through, as the REST write routes do; none when the server takes no writes. */
  writer?: CatalogWriter;
}

/** What travels with one request through graphql-http: the resolvers' context and whether the answer may be kept. */
interface RequestContext {
  graphql: GraphQLContext;
  /** Whether the document asks for a random record (its answer is never kept). */
  random?: boolean;
  /** Set once the operation ran: an answer without errors to a document asking for nothing random. */
  keep: boolean;
  /** Ends a costly operation's turn (`CostlyGate`), once it has been answered. */
  leave?: () => void;
}

/**
 * An operation estimated to cost this much or more takes its turn through the `CostlyGate`:
 * about a millisecond of execution; cheaper ones (most, and every page of 10 records with a
 * link or two) run at once.
 */
const COSTLY = 1000;
/**
 * A query text this long (in characters) that has not been checked before takes its turn through
 * the `CostlyGate` to be parsed and checked: near the token limit that costs up to a millisecond,
 * ten times a REST read. Typical queries are a few hundred characters.
 */
const LARGE_DOCUMENT = 2048;
/** How long an operation runs before other requests are served (`Pacer`). */
const EXECUTION_SLICE_MS = 5;

/** The refusal of a costly operation while `waiting` others wait for their turn. */
function busy(waiting: number): [string, { status: number; statusText: string; headers: Record<string, string> }] {
  return [
    JSON.stringify({
      errors: [
        {
          message: `Costly operations limit exceeded: ${waiting} operations costing ${COSTLY} or more or new query texts of ${LARGE_DOCUMENT} characters or more are already waiting to run one at a time; try again after 1 second.`,
        },
      ],
    }),
    {
      status: 503,
      statusText: 'Service Unavailable',
      headers: { 'content-type': 'application/json; charset=utf-8', 'retry-after': '1' },
    },
  ];
}

/** What graphql-http's bodiless refusals mean, said the service's way. */
const REFUSALS: Record<number, string> = {
  406: 'Accept must allow application/graphql-response+json or application/json (charset utf-8)',
  405: 'GraphQL takes GET and POST only',
};

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
 * The endpoint behind `GET` and `POST /api/graphql`, following GraphQL over HTTP (graphql-http
 * does the protocol: methods, media types, status codes). Documents are parsed and checked
 * once; a request's cost is checked against its variables before it runs. A successful answer
 * to a query (never a mutation's, nor one asking for a random record) is kept in the catalog
 * version's response cache like a REST read, by everything it depends on (`answerKey`): a
 * repeated request is answered from it without a costly turn or execution, a GET with a strong
 * ETag, 304 and `Cache-Control: public` (and the fast path learns it), a POST with `no-store`. A
 * write serves a new version with an empty cache.
 *
 * @example
 * const endpoint = graphqlEndpoint({ served, cacheControl: 'public, max-age=300', maxPageSize: 50, limits, costlyQueue: 8, documentCacheBytes: 4 * 2 ** 20 });
 * router.get('/api/graphql', (ctx) => endpoint.answer(ctx));
 */
export function graphqlEndpoint(options: GraphQLOptions): GraphQLEndpoint {
  const { served, limits, maxPageSize } = options;
  const schema: GraphQLSchema = catalogSchema();
  const documents = new DocumentCache(schema, limits, options.documentCacheBytes);
  const gate = new CostlyGate(options.costlyQueue);
  const refusal = busy(options.costlyQueue);
  const handler = createHandler<Context['req'], RequestContext, GraphQLContext>({
    schema,
    formatError: withRestStatus,
    onOperation: (req, args, result) => {
      const mutation = getOperationAST(args.document, args.operationName)?.operation === 'mutation';
      req.context.keep = req.context.random === false && !mutation && !result.errors;
      return withIncidentsReported(result, options.log, `${req.method} ${req.raw.url?.split('?')[0]}`);
    },
    onSubscribe: async (req, params) => {
      // A large text not checked before takes a turn to be parsed and checked (up to about a millisecond), then keeps it if it runs costly.
      let leave: (() => void) | undefined;
      if (params.query.length >= LARGE_DOCUMENT && !documents.known(params.query)) {
        leave = await gate.enter();
        if (!leave) return refusal;
      }
      const admitted = admit(params, { schema, documents, limits, context: req.context.graphql });
      if (!('args' in admitted) || admitted.cost < COSTLY) {
        leave?.();
        if (!('args' in admitted)) return admitted;
      } else if (!leave) {
        leave = await gate.enter();
        if (!leave) return refusal;
      }
      if (admitted.cost >= COSTLY) req.context.leave = leave;
      req.context.random = admitted.random;
      return admitted.args;
    },
  });

  const answer = async (ctx: Context) => {
    const { catalog, cache } = servedTo(ctx, { served });
    const preferred = acceptedLanguage(koaHeaders(ctx), catalog);
    const origin = pictureOrigin(ctx, options.publicUrl, catalog);
    ctx.vary('Accept');
    const body = ctx.method === 'POST' ? (ctx.request as { body?: unknown }).body : undefined;
    if (Array.isArray(body)) {
      // A limit like the others, so refused the GraphQL way: no array is ever executed.
      ctx.status = 400;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = {
        errors: [
          {
            message: `Batched operations are not supported: send one operation per request, got an array of ${body.length}.`,
          },
        ],
      };
      return;
    }
    const key = answerKey(ctx, preferred, origin);
    const cacheControl = ctx.method === 'GET' ? options.cacheControl : 'no-store';
    // A kept answer costs a lookup: no costly turn, no execution.
    const kept = key === undefined ? undefined : cache.peek(key);
    const sendKept = (entry: CachedResponse) => {
      send(ctx, entry, cacheControl);
      // The fast path may replay a POST's answer to the same body (and URL, Content-Type and headers in Vary).
      if (ctx.method === 'POST') answeredFromBody(ctx, (ctx.request as { rawBody: string }).rawBody);
    };
    if (kept) return sendKept(kept);
    const context: RequestContext = {
      graphql: {
        catalog,
        preferred,
        maxPageSize,
        origin,
        pacer: new Pacer(EXECUTION_SLICE_MS),
        reached: new Map(),
        mutations: mutationContext(ctx, options.writer),
      },
      keep: false,
    };
    const request: GraphQLRequest<Context['req'], RequestContext> = {
      method: ctx.method,
      url: ctx.url,
      headers: ctx.req.headers,
      body: (body ?? null) as never,
      raw: ctx.req,
      context,
    };
    let answered: Awaited<ReturnType<typeof handler>>;
    try {
      answered = await handler(request);
    } finally {
      context.leave?.();
    }
    const [text, init] = answered;
    const headers = (init.headers ?? {}) as Record<string, string>;
    // Refusals without a GraphQL body (406, an unknown method) are HTTP's: the service's error shape.
    if (text === null)
      throw new HttpError(
        init.status,
        REFUSALS[init.status] ?? `GraphQL request refused: ${init.statusText ?? init.status}`,
        headers,
      );
    if (init.status === 200 && context.keep && key !== undefined) {
      return sendKept(cache.get(key, () => ({ json: text, headers: { 'Content-Type': headers['content-type']! } })));
    }
    ctx.status = init.status;
    ctx.set(headers);
    // graphql-http's 405 to a mutation by GET carries a JSON body but no type.
    if (!headers['content-type']) ctx.type = 'application/json; charset=utf-8';
    ctx.set('Cache-Control', 'no-store');
    ctx.body = text;
  };

  return { answer, schemaText: () => schemaText(schema) };
}
