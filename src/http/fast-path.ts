import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Middleware } from 'koa';
import type { Logger } from '../config/logger.ts';
import type { CachedResponse } from '../served/cached-response.ts';
import type { Admission, RateLimits } from '../limits/rate-limits.ts';
import { readBearer, recallBearer, type Bearer } from './bearer.ts';
import { Refusals, replay, writeError } from './fast-answers.ts';
import { FastMemory, type FastMemoryOptions, type Found } from './fast-memory.ts';
import { readBody } from './fast-post.ts';
import { reportIncident } from './incident.ts';
import type { Known } from './known-urls.ts';
import { countedBefore, requestClient, type ProxyTrust } from './rate-limit.ts';

/** What the fast path needs: the catalog, and for limited deployments the limits and accounts. */
export interface FastPathOptions extends FastMemoryOptions {
  limits?: RateLimits;
  proxy: ProxyTrust;
  log: Logger;
  logAccess: boolean;
}

const ANONYMOUS: Bearer = {};

/**
 * Answers repeated GETs without going through Koa: once the app has answered a URL from its
 * response cache or its pictures (or with a 400/404), the same URL with the same values of the headers the
 * answer varies on is answered here, with the same bytes and headers. So are repeated POSTs whose
 * cached answer depends on their body (GraphQL queries, `answeredFromBody`), by URL, `Content-Type`
 * and body: a POST of a URL and length that has such an answer is read ahead of Koa (`KnownBodies`). It does what the
 * app does before its routes: the same rate limits (one count per request, the same headers and
 * 429), the same bearer token check (the same 401), and the same negotiation of encoding and
 * `If-None-Match` (`cacheableAnswer`). A student with a sandbox (classroom mode) is answered
 * what its sandbox's cache holds, remembered under its account (`ownKey`) and replayed to that
 * account alone, never the shared answer. Anything else goes to Koa.
 *
 * @example
 * const fast = new FastPath({
 *   served,
 *   accounts,
 *   limits,
 *   proxy: trustProxies(0, log.warn),
 *   log,
 *   logAccess: true,
 *   memory: { answersBytes: 2 ** 23, errorsBytes: 2 ** 20 },
 * });
 * app.use(fast.remember()); // outermost
 * createHttpServer(fast.listener(app.callback()), options);
 */
export class FastPath {
  private readonly memory: FastMemory;
  private readonly refusals = new Refusals();
  /** The app's listener, for a request admitted at a URL known only by its 429. */
  private app?: RequestListener;

  constructor(private readonly options: FastPathOptions) {
    this.memory = new FastMemory(options);
  }

  /**
   * Koa middleware, outermost: remembers each cached 200 and each repeated 400/404/429 of a
   * GET, and each cached 200 of a POST answered from its body (`FastMemory`).
   */
  remember(): Middleware {
    return this.memory.remember();
  }

  /** The server's request listener: the fast answer when there is one, else `app`. */
  listener(app: RequestListener): RequestListener {
    this.app = app;
    return (req, res) => {
      const found = this.memory.find(req);
      if (found) return this.start(req, res, found);
      if (!this.memory.worthReading(req)) return app(req, res);
      // Read ahead of Koa, which parses the same bytes (`parsedFrom`) when no answer is remembered for them.
      readBody(req)
        .then((body) => {
          if (body === undefined) return;
          const held = this.memory.findPost(req, body);
          if (held) this.start(req, res, held);
          else app(req, res);
        })
        .catch((error: unknown) => {
          reportIncident(this.options.log, `POST ${req.url?.split('?')[0]} read ahead (fast path)`, error);
          res.destroy();
        });
    };
  }

  private start(req: IncomingMessage, res: ServerResponse, found: Found): void {
    try {
      this.answer(req, res, found.known, found.entry)?.catch((error: unknown) =>
        this.fail(req, res, found.known, error),
      );
    } catch (error) {
      this.fail(req, res, found.known, error);
    }
  }

  /**
   * A fast answer that threw: logged with a request id, and a 500 quoting it (`request_id`) in the one error shape if
   * nothing was sent yet.
   */
  private fail(req: IncomingMessage, res: ServerResponse, known: Known, error: unknown): void {
    const method = known.method ?? 'GET';
    const id = reportIncident(this.options.log, `500 on ${method} ${known.path} (fast path)`, error);
    if (!res.headersSent)
      writeError(
        req,
        res,
        { status: 500, method, message: 'Internal server error', url: known.path, request_id: id },
        known.base,
      );
  }

  /**
   * Checks the token and counts the request as Koa would, then answers. Synchronous under
   * memory limits for an anonymous request and for a token verified before (the common
   * cases), a promise otherwise.
   */
  private answer(
    req: IncomingMessage,
    res: ServerResponse,
    known: Known,
    entry: CachedResponse | undefined,
  ): void | Promise<void> {
    const started = this.options.logAccess ? performance.now() : undefined;
    const authorization = req.headers.authorization;
    if (authorization === undefined) return this.count(req, res, known, entry, ANONYMOUS, started);
    const recalled = recallBearer(authorization, this.options.accounts, req.socket);
    if (recalled) return this.count(req, res, known, entry, recalled, started);
    return readBearer(authorization, this.options.accounts, req.socket).then((bearer) =>
      this.count(req, res, known, entry, bearer, started),
    );
  }

  private count(
    req: IncomingMessage,
    res: ServerResponse,
    known: Known,
    entry: CachedResponse | undefined,
    bearer: Bearer,
    started: number | undefined,
  ): void | Promise<void> {
    const { limits, proxy } = this.options;
    if (!limits || known.budget === 'free') return this.finish(req, res, known, entry, bearer, undefined, started);
    const client = requestClient(known.budget === 'api' ? bearer.caller : undefined, req, proxy);
    const admission = limits.admit(known.budget, client);
    if (admission instanceof Promise)
      return admission.then((found) => this.finish(req, res, known, entry, bearer, found, started));
    this.finish(req, res, known, entry, bearer, admission, started);
  }

  private finish(
    req: IncomingMessage,
    res: ServerResponse,
    known: Known,
    entry: CachedResponse | undefined,
    bearer: Bearer,
    admission: Admission | undefined,
    started?: number,
  ): void {
    const refusal = admission?.refusal ? { status: 429, ...admission.refusal } : bearer.rejected;
    if (refusal && !known.method) this.refusals.write(req, res, known, refusal, admission?.headers);
    // A refused POST, and a caller whose view is not the one `known` was remembered for, are answered by Koa, counted
    // here.
    else if (refusal || 'refusedOnly' in known.answer || !this.answersFor(bearer, known))
      return this.handOver(req, res, admission);
    else if ('error' in known.answer) writeError(req, res, known.answer.error, known.headers, admission?.headers);
    else replay(req, res, known, entry!, admission?.headers);
    if (started !== undefined)
      this.options.log.access(known.method ?? 'GET', known.path, res.statusCode, performance.now() - started);
  }

  /**
   * Whether `known` is the answer of what `bearer`'s caller reads now: a shared answer to a
   * caller without a sandbox, or its own sandbox's answer while that sandbox is as it was.
   */
  private answersFor(bearer: Bearer, known: Known): boolean {
    const { sandboxes } = this.options;
    const { caller } = bearer;
    if (!sandboxes || !caller || !sandboxes.readsOwn(caller)) return known.account === undefined;
    return known.account === caller.uuid && sandboxes.builtView(caller.uuid)?.cache.version === known.version;
  }

  /**
   * A request admitted where only a 429 is known, a refused POST, or one whose caller reads its sandbox: Koa answers it
   * (and logs it), counted here.
   */
  private handOver(req: IncomingMessage, res: ServerResponse, admission: Admission | undefined): void {
    countedBefore(req, admission);
    this.app!(req, res);
  }
}
