import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Context, Middleware } from 'koa';
import type { Caller } from '../accounts/account.ts';
import type { AccountService } from '../accounts/service.ts';
import type { Logger } from '../config/logger.ts';
import type { CachedResponse } from '../served/cached-response.ts';
import type { Admission, RateLimits } from '../limits/rate-limits.ts';
import { readBearer, recallBearer, type AuthState, type Bearer } from './bearer.ts';
import type { RenderedState } from './errors.ts';
import { Refusals, replay, writeError } from './fast-answers.ts';
import { reportIncident } from './incident.ts';
import { countedBefore, requestClient, type ProxyTrust } from './rate-limit.ts';
import { pairsOf, plain, variesOn, type BaseState } from './replayed-headers.ts';
import { lacksHost, targetTooLong } from './request-guard.ts';
import type { RouteState } from './routing.ts';
import { KnownUrls, writtenHere, type Known } from './known-urls.ts';
import { answeredPost, bodyKey, KnownBodies, readBody } from './fast-post.ts';
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
 * answer varies on is answered here, with the same bytes and headers. So are repeated POSTs whose
 * cached answer depends on their body (GraphQL queries, `answeredFromBody`), by URL, `Content-Type`
 * and body: a POST of a URL and length that has such an answer is read ahead of Koa (`KnownBodies`). It does what the app
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
  /** Which POSTs may have a remembered answer (to a GraphQL query, by its body). */
  private readonly bodies = new KnownBodies();
  private readonly refusals = new Refusals();
  /** The app's listener, for a request admitted at a URL known only by its 429. */
  private app?: RequestListener;

  constructor(private readonly options: FastPathOptions) {
    this.memory = new KnownUrls(options.memory);
  }

  /**
   * Koa middleware, outermost: remembers each cached 200 and each repeated 400/404/429 of a GET,
   * and each cached 200 of a POST answered from its body.
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
      if (targetTooLong(ctx.url) || !state.route || askedSimulation(ctx) || own) return;
      if (!this.options.served.ready) return;
      const { sent, rendered: error } = ctx.state as SentState & RenderedState;
      const { cache, pictures } = this.options.served.shared;
      if (ctx.method === 'POST') {
        const post = answeredPost(ctx, cache);
        if (!post) return;
        this.learn(ctx, post.key, {
          version: cache.version,
          budget: state.route.budget,
          answer: post.answer,
          method: 'POST',
        });
        return this.bodies.note(ctx.url, post.length);
      }
      if (ctx.method !== 'GET') return;
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
      this.learn(ctx, ctx.url, { version: cache.version, budget: state.route.budget, answer });
    };
  }

  /** Remembers the answer Koa gave to `ctx` under `key`, with the headers it was sent with. */
  private learn(ctx: Context, key: string, known: Pick<Known, 'version' | 'budget' | 'answer' | 'method'>): void {
    this.memory.learn(key, variesOn(ctx.response.get('Vary')), ctx.req.headers, {
      ...known,
      base: pairsOf((ctx.state as BaseState).base ?? {}),
      headers: pairsOf(plain(ctx.response.headers), writtenHere(known.answer)),
      path: ctx.path,
      ...(ctx.querystring ? { params: ctx.query } : {}),
    });
  }

  /** The server's request listener: the fast answer when there is one, else `app`. */
  listener(app: RequestListener): RequestListener {
    this.app = app;
    return (req, res) => {
      const found = this.find(req);
      if (found) return this.start(req, res, found);
      if (!this.bodies.worthReading(req) || lacksHost(req)) return app(req, res);
      // Read ahead of Koa, which parses the same bytes (`parsedFrom`) when no answer is remembered for them.
      readBody(req)
        .then((body) => {
          if (body === undefined) return;
          const known = this.memory.recall(bodyKey(req.url ?? '', req.headers['content-type'], body), req.headers);
          const held = known && this.held(known);
          if (held) this.start(req, res, held);
          else app(req, res);
        })
        .catch((error: unknown) => {
          reportIncident(this.options.log, `POST ${req.url?.split('?')[0]} read ahead (fast path)`, error);
          res.destroy();
        });
    };
  }

  private start(req: IncomingMessage, res: ServerResponse, found: { known: Known; entry?: CachedResponse }): void {
    try {
      this.answer(req, res, found.known, found.entry)?.catch((error: unknown) =>
        this.fail(req, res, found.known, error),
      );
    } catch (error) {
      this.fail(req, res, found.known, error);
    }
  }

  /** A fast answer that threw: logged with a request id, and a 500 quoting it (`request_id`) in the one error shape if nothing was sent yet. */
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

  /** What the app said to this request before, with the cached answer still held; else undefined. */
  private find(req: IncomingMessage): { known: Known; entry?: CachedResponse } | undefined {
    if (req.method !== 'GET' || lacksHost(req)) return undefined;
    const url = req.url ?? '';
    const known = this.memory.recall(url, req.headers);
    return known && this.held(known);
  }

  /** `known` with the cached answer it replays, while that answer is held for the catalog served. */
  private held(known: Known): { known: Known; entry?: CachedResponse } | undefined {
    if (!this.options.served.ready) return undefined;
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
    if (refusal && !known.method) this.refusals.write(req, res, known, refusal, admission?.headers);
    // A refused POST, and a caller who reads its sandbox, are answered by Koa, counted here.
    else if (refusal || 'refusedOnly' in known.answer || (bearer.caller && this.options.sandboxed?.(bearer.caller)))
      return this.handOver(req, res, admission);
    else if ('error' in known.answer) writeError(req, res, known.answer.error, known.headers, admission?.headers);
    else replay(req, res, known, entry!, admission?.headers);
    if (started !== undefined)
      this.options.log.access(known.method ?? 'GET', known.path, res.statusCode, performance.now() - started);
  }

  /** A request admitted where only a 429 is known, a refused POST, or one whose caller reads its sandbox: Koa answers it (and logs it), counted here. */
  private handOver(req: IncomingMessage, res: ServerResponse, admission: Admission | undefined): void {
    countedBefore(req, admission);
    this.app!(req, res);
  }
}
