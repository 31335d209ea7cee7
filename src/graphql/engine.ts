import { getOperationAST, type GraphQLSchema } from 'graphql';
import { createHandler } from 'graphql-http';
import type { Catalog } from '../catalog/catalog.ts';
import type { IncidentLog } from '../http/incident.ts';
import { HttpError } from '../lib/http-error.ts';
import { admit } from './admission.ts';
import type { FeedContext, GraphQLContext, MutationContext } from './context.ts';
import { CostlyGate } from './costly-gate.ts';
import { DocumentCache } from './documents.ts';
import { withRestStatus } from './error-status.ts';
import { withIncidentsReported } from './incidents.ts';
import type { GraphQLLimits } from './limits.ts';
import { Pacer } from './pacer.ts';
import { catalogSchema, schemaText } from './schema.ts';

/** How GraphQL runs, on the server and in a static site's worker alike. */
export interface GraphQLEngineOptions {
  /** Largest page a list answers with. */
  maxPageSize: number;
  limits: GraphQLLimits;
  /** Costly operations that may wait for their turn (`CostlyGate`); the next is refused with 503. */
  costlyQueue: number;
  /** Memory for parsed and validated query texts. */
  documentCacheBytes: number;
  /** Where an error no resolver expected is logged, with the request id its answer quotes. */
  log: IncidentLog;
}

/** One GraphQL request as a face hands it over: the HTTP parts, and what the resolvers read. */
export interface GraphQLRequest {
  method: string;
  /** The request target (path and query). */
  url: string;
  /** Lower-case names. */
  headers: Record<string, string | string[] | undefined>;
  /** A POST's parsed JSON body; undefined for a GET. */
  body: unknown;
  catalog: Catalog;
  /** The language of `Accept-Language` (else the default). */
  preferred: string;
  /** What picture paths are made absolute with. */
  origin: string;
  mutations: MutationContext;
  /** The data version read (after a mutation: the one it made), named in the answer's `extensions`. */
  version: () => string;
  /** The change feed, and the caller's own sandbox changes; none on a static site. */
  changes?: FeedContext;
}

/**
 * What a GraphQL request is answered: status, headers (lower-case names), the JSON text, and whether the answer may be
 * kept.
 */
export interface GraphQLAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** A query's answer without errors, asking for nothing random: the same request gets the same bytes. */
  keep: boolean;
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
/** The type of every JSON answer the engine writes itself. */
const JSON_TYPE = 'application/json; charset=utf-8';

/** The refusal of a costly operation while `waiting` others wait for their turn. */
function busy(waiting: number): [string, { status: number; statusText: string; headers: Record<string, string> }] {
  const message =
    `Costly operations limit exceeded: ${waiting} operations costing ${COSTLY} or more or new query texts of ` +
    `${LARGE_DOCUMENT} characters or more are already waiting to run one at a time; try again after 1 second.`;
  return [
    JSON.stringify({ errors: [{ message }] }),
    { status: 503, statusText: 'Service Unavailable', headers: { 'content-type': JSON_TYPE, 'retry-after': '1' } },
  ];
}

/** What graphql-http's bodiless refusals mean, said the service's way. */
const REFUSALS: Record<number, string> = {
  406: 'Accept must allow application/graphql-response+json or application/json (charset utf-8)',
  405: 'GraphQL takes GET and POST only',
};

/**
 * GraphQL over HTTP for the catalog (graphql-http does the protocol: methods, media types,
 * status codes), for any face: documents are parsed and checked once, a request's cost is
 * checked against its variables before it runs, costly work takes turns (`CostlyGate`), and
 * execution is cut into slices (`Pacer`). Refusals without a GraphQL body (406, an unknown
 * method) are thrown as `HttpError`s, for the face to render in the one error shape.
 *
 * @example
 * const engine = graphqlEngine({ maxPageSize: 50, limits, costlyQueue: 8, documentCacheBytes: 2 ** 22, log });
 * const { status, text } = await engine.run({
 *   method: 'GET',
 *   url: '/api/graphql?query=…',
 *   headers,
 *   body: undefined,
 *   catalog,
 *   …
 * });
 */
export function graphqlEngine(options: GraphQLEngineOptions): {
  run(request: GraphQLRequest): Promise<GraphQLAnswer>;
  schemaText(): string;
} {
  const { limits, maxPageSize } = options;
  const schema: GraphQLSchema = catalogSchema();
  const documents = new DocumentCache(schema, limits, options.documentCacheBytes);
  const gate = new CostlyGate(options.costlyQueue);
  const refusal = busy(options.costlyQueue);
  const handler = createHandler<GraphQLRequest, RequestContext, GraphQLContext>({
    schema,
    formatError: withRestStatus,
    onOperation: (req, args, result) => {
      const mutation = getOperationAST(args.document, args.operationName)?.operation === 'mutation';
      req.context.keep = req.context.random === false && !mutation && !result.errors;
      const reported = withIncidentsReported(result, options.log, `${req.method} ${req.url.split('?')[0]}`) ?? result;
      return { ...reported, extensions: { ...reported.extensions, catalog_version: req.raw.version() } };
    },
    onSubscribe: async (req, params) => {
      // A large text not checked before takes a turn to be parsed and checked (up to about a millisecond), then keeps
      // it if it runs costly.
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

  const run = async (request: GraphQLRequest): Promise<GraphQLAnswer> => {
    const { body } = request;
    if (Array.isArray(body)) {
      // A limit like the others, so refused the GraphQL way: no array is ever executed.
      const message =
        'Batched operations are not supported: send one operation per request, ' + `got an array of ${body.length}.`;
      return {
        status: 400,
        headers: { 'content-type': JSON_TYPE },
        text: JSON.stringify({ errors: [{ message }] }),
        keep: false,
      };
    }
    const context: RequestContext = {
      graphql: {
        catalog: request.catalog,
        preferred: request.preferred,
        maxPageSize,
        origin: request.origin,
        pacer: new Pacer(EXECUTION_SLICE_MS),
        reached: new Map(),
        mutations: request.mutations,
        ...(request.changes ? { changes: request.changes } : {}),
      },
      keep: false,
    };
    let answered: Awaited<ReturnType<typeof handler>>;
    try {
      answered = await handler({
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: (body ?? null) as never,
        raw: request,
        context,
      });
    } finally {
      context.leave?.();
    }
    const [text, init] = answered;
    const headers = { ...((init.headers ?? {}) as Record<string, string>) };
    if (text === null)
      throw new HttpError(
        init.status,
        REFUSALS[init.status] ?? `GraphQL request refused: ${init.statusText ?? init.status}`,
        headers,
      );
    // graphql-http's 405 to a mutation by GET carries a JSON body but no type.
    headers['content-type'] ??= JSON_TYPE;
    return { status: init.status, headers, text, keep: init.status === 200 && context.keep };
  };

  return { run, schemaText: () => schemaText(schema) };
}
