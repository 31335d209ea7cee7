import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Middleware } from 'koa';
import type { Caller } from '../accounts/account.ts';
import type { AccountService } from '../accounts/service.ts';
import type { Logger } from '../config/logger.ts';
import type { CachedResponse } from '../served/cached-response.ts';
import type { HttpError } from '../lib/http-error.ts';
import type { Admission, RateLimits } from '../limits/rate-limits.ts';
import { readBearer, recallBearer, type AuthState, type Bearer } from './bearer.ts';
import type { ErrorFields, RenderedState } from './errors.ts';
import { replay, writeError } from './fast-answers.ts';
import { reportIncident } from './incident.ts';
import { countedBefore, requestClient, type ProxyTrust } from './rate-limit.ts';
import { pairsOf, plain, variesOn, type BaseState } from './replayed-headers.ts';
import { lacksHost, targetTooLong } from './request-guard.ts';
import type { RouteState } from './routing.ts';
import { KnownUrls, writtenHere, type Known } from './known-urls.ts';
import type { SentState } from './send.ts';
import { askedSimulation } from './simulation.ts';
import type { ServedCatalog } from '../served/served-catalog.ts';

/** What the fast path needs: the catalog, and for limited deployments the limits and accounts. */
export interface FastPathOptions {
  served: ServedCatalog;
  accounts: AccountService;
  limits?: RateLimits;
  proxy: ProxyTrust;
  log: Logger;
  logAccess: boolean;
  /** Whether a caller's reads are answered from its own sandbox (classroom mode): those go to Koa. */
  sandboxed?: (caller: Caller) => boolean;
  /** Memory for what it remembers of answers kept in the response cache, and of 400/404s. */
  memory: { answersBytes: number; errorsBytes: number };
}

const ANONYMOUS: Bearer = {};

/**
 * Answers repeated GETs without going through Koa: once the app has answered a URL from its
 * response cache or its pictures (or with a 400/404), the same URL with the same values of the headers the
 * answer varies on is answered here, with the same bytes and headers. It does what the app
 * does before its routes: the same rate limits (one count per request, the same headers and
 * 429), the same bearer token check (the same 401), and the same negotiation of encoding and
 * `If-None-Match` (`cacheableAnswer`). Anything else goes to Koa.
 *
 * @example
 * const fast = new FastPath({ served, accounts, limits, proxy: trustProxies(0, log.warn), log, logAccess: true, memory: { answersBytes: 2 ** 23, errorsBytes: 2 ** 20 } });
 * app.use(fast.remember()); // outermost
 * createHttpServer(fast.listener(app.callback()), options);
 */
export class FastPath {
  private readonly memory: KnownUrls;
  /** The last 429 written, with what decides it (see `refuse`). */
  private lastRefusal?: {
    known: Known;
    at: number;
    message: string;
    accept: string | undefined;
    headers: string[];
    body: string;
  };
  /** The app's listener, for a request admitted at a URL known only by its 429. */
  private app?: RequestListener;

  constructor(private readonly options: FastPathOptions) {
    this.memory = new KnownUrls(options.memory);
  }

  /**
   * Koa middleware, outermost: remembers each cached 200 and each repeated 400/404/429 of a GET.
   * A client refused from its first request on never reaches an answer the cache keeps, so its
   * URL is learnt from the 429 itself.
   */
  remember(): Middleware {
    return async (ctx, next) => {
      await next();
      const state = ctx.state as Partial<RouteState> & BaseState & AuthState;
      // A simulated answer (`_delay`, `_fail`) is simulated again on every request, by Koa. A sandbox's answer
      // (its 404 of a record it deleted too) is its account's alone: never learnt, so never replayed to anyone.
      const own = state.account && this.options.sandboxed?.(state.account);
      if (ctx.method !== 'GET' || targetTooLong(ctx.url) || !state.route || askedSimulation(ctx) || own) return;
      if (!this.options.served.ready) return;
      const { sent, rendered: error } = ctx.state as SentState & RenderedState;
      const { cache, pictures } = this.options.served.shared;
      const cached =
        sent !== undefined && (ctx.status === 200 || ctx.status === 304) && sent.cacheControl !== 'no-store';
      const picture = cached && pictures.peek(sent.entry.key) === sent.entry;
      let answer: Known['answer'];
      if (cached && (picture || cache.peek(sent.entry.key) === sent.entry)) {
        answer = { cacheKey: sent.entry.key, cacheControl: sent.cacheControl, picture };
      } else if (error && (error.status === 400 || error.status === 404) && this.memory.repeated(ctx.url)) {
        answer = { error };
      } else if (error?.status === 429 && this.memory.repeated(ctx.url)) {
        answer = { refusedOnly: true };
      } else {
        return;
      }
      const names = variesOn(ctx.response.get('Vary'));
      this.memory.learn(ctx.url, names, ctx.req.headers, {
        version: cache.version,
        budget: state.route.budget,
        base: pairsOf(state.base ?? {}),
        headers: pairsOf(plain(ctx.response.headers), writtenHere(answer)),
        path: ctx.path,
        ...(ctx.querystring ? { params: ctx.query } : {}),
        answer,
      });
    };
  }

  /** The server's request listener: the fast answer when there is one, else `app`. */
  listener(app: RequestListener): RequestListener {
    this.app = app;
    return (req, res) => {
      const found = this.find(req);
      if (!found) return app(req, res);
      try {
        this.answer(req, res, found.known, found.entry)?.catch((error: unknown) =>
          this.fail(req, res, found.known, error),
        );
      } catch (error) {
        this.fail(req, res, found.known, error);
      }
    };
  }

  /** A fast answer that threw: logged with a request id, and a 500 quoting it (`request_id`) in the one error shape if nothing was sent yet. */
  private fail(req: IncomingMessage, res: ServerResponse, known: Known, error: unknown): void {
    const id = reportIncident(this.options.log, `500 on GET ${known.path} (fast path)`, error);
    if (!res.headersSent)
      writeError(
        req,
        res,
        { status: 500, method: 'GET', message: 'Internal server error', url: known.path, request_id: id },
        known.base,
      );
  }

  /** What the app said to this request before, with the cached answer still held; else undefined. */
  private find(req: IncomingMessage): { known: Known; entry?: CachedResponse } | undefined {
    if (req.method !== 'GET' || lacksHost(req)) return undefined;
    const url = req.url ?? '';
    const known = this.memory.recall(url, req.headers);
    if (!known || !this.options.served.ready) return undefined;
    const { cache, pictures } = this.options.served.shared;
    if (known.version !== cache.version) return undefined;
    if (!('cacheKey' in known.answer)) return { known };
    // Looked up before anything is counted: a request is counted once, here or in Koa.
    const entry = (known.answer.picture ? pictures : cache).peek(known.answer.cacheKey);
    return entry && { known, entry };
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
    if (refusal) this.refuse(req, res, known, refusal, admission?.headers);
    else if ('refusedOnly' in known.answer || (bearer.caller && this.options.sandboxed?.(bearer.caller)))
      return this.handOver(req, res, admission);
    else if ('error' in known.answer) writeError(req, res, known.answer.error, known.headers, admission?.headers);
    else replay(req, res, known, entry!, admission?.headers);
    if (started !== undefined) this.options.log.access('GET', known.path, res.statusCode, performance.now() - started);
  }

  /** A request admitted where only a 429 is known, or whose caller reads its sandbox: Koa answers it (and logs it), counted here. */
  private handOver(req: IncomingMessage, res: ServerResponse, admission: Admission | undefined): void {
    countedBefore(req, admission);
    this.app!(req, res);
  }

  /**
   * The 429 or 401 Koa gives before any route runs: the headers set by then, and the error's.
   * A 429 is the same answer for every request of one client to one URL within a millisecond
   * (its budget headers and message move by the second, its timestamp by the millisecond), so
   * a flood is answered with the last one rendered rather than rendering each again.
   */
  private refuse(
    req: IncomingMessage,
    res: ServerResponse,
    known: Known,
    error: Pick<HttpError, 'status' | 'message' | 'headers'>,
    limitHeaders: readonly string[] = [],
  ): void {
    const at = Date.now();
    const accept = req.headers.accept;
    const last = this.lastRefusal;
    if (
      error.status === 429 &&
      last &&
      last.known === known &&
      last.at === at &&
      last.message === error.message &&
      last.accept === accept
    ) {
      res.writeHead(429, last.headers).end(last.body);
      return;
    }
    const fields: ErrorFields = { status: error.status, method: 'GET', message: error.message, url: known.path };
    if (known.params) fields.params = known.params;
    // The error's own headers (Retry-After, WWW-Authenticate) are never among the base's.
    const written = writeError(req, res, fields, known.base.concat(pairsOf(error.headers)), limitHeaders);
    if (error.status === 429) this.lastRefusal = { known, at, message: error.message, accept, ...written };
  }
}
