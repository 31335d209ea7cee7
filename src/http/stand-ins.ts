// What the fast path (fast-path.ts) does in place of the app's middleware.

/**
 * The app's middleware, outermost first, then the stages of the route table's admission, and
 * how a fast answer stands in for each: a request
 * answered here must come out as if it had gone through all of them. A middleware added to
 * the app must be added here, with its stand-in, or the fast path would skip it silently
 * (test/fast-path.test.ts holds the app's chain to this list).
 */
export const STANDS_IN_FOR = {
  remember: 'this class: what it learnt is what is replayed',
  accessLog: 'finish() logs the same access line',
  cors: 'its headers are among those remembered (`base` and `headers`)',
  errorHandler: 'writeError() and fail() write the one error shape',
  requestGuard:
    'find() hands a request without Host to Koa, and no target too long is remembered; its headers are remembered',
  captureBase: 'its headers are `base`',
  routes:
    "the budget of the route that served a URL is remembered, and only a route's answers or its 404; an answer " +
    'is replayed only while it depends on nothing but the URL and the headers in its `Vary` (and for a POST its ' +
    "route said `answeredFromBody` of, the `Content-Type` and the body, sent as is: its parser's checks passed " +
    'for the same bytes and headers)',
  rateLimit:
    'count() admits or refuses with the same limits and headers (a refused POST is handed to Koa, counted once)',
  bearerAuth: "answer() checks the token, the same 401 (a POST's is Koa's, counted once)",
  simulation:
    'remember() never learns the answer of a request that asked for a simulation (`_delay`, `_fail`): each such ' +
    'request goes to Koa, and a URL without them never had a simulated answer',
  sandbox:
    'finish() hands a request whose caller has a sandbox to Koa; remember() learns nothing answered to such a ' +
    'caller (not even a 404 of a record its sandbox deleted), only answers of the shared response cache',
} as const;

/** The name of a middleware the fast path stands in for. */
export type StoodInFor = keyof typeof STANDS_IN_FOR;
