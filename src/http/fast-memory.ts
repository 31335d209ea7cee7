import type { IncomingMessage } from 'node:http';
import type { Context, Middleware } from 'koa';
import type { AccountService } from '../accounts/service.ts';
import type { CachedResponse } from '../served/cached-response.ts';
import type { Sandboxes } from '../served/sandboxes.ts';
import type { Served, ServedCatalog } from '../served/served-catalog.ts';
import { recallBearer, type AuthState } from './bearer.ts';
import type { RenderedState } from './errors.ts';
import { answeredPost, bodyKey, KnownBodies } from './fast-post.ts';
import { KnownUrls, ownKey, writtenHere, type Known } from './known-urls.ts';
import { pairsOf, plain, variesOn, type BaseState } from './replayed-headers.ts';
import { targetTooLong } from '../reads/target.ts';
import { lacksHost } from './request-guard.ts';
import type { RouteState } from './routing.ts';
import type { SentState } from './send.ts';
import { askedSimulation } from './simulation.ts';

/** What the fast path remembers answers of, and within what memory. */
export interface FastMemoryOptions {
  served: ServedCatalog;
  accounts: AccountService;
  /** Classroom mode's sandboxes: a caller below MAINTAINER that holds one reads its own catalog. */
  sandboxes?: Pick<Sandboxes, 'readsOwn' | 'viewOf' | 'builtView'>;
  /** Memory for what it remembers of answers kept in the response cache, and of 400/404s. */
  memory: { answersBytes: number; errorsBytes: number };
}

/** A remembered answer found for a request, with the cached answer it replays (none for an error). */
export interface Found {
  known: Known;
  entry?: CachedResponse;
}

/**
 * What the fast path knows of Koa's answers: it learns them as Koa sends them (`remember`)
 * and finds the one a request may be given (`find`, `findPost`), only while the answer is
 * still held for the catalog the caller reads: the shared one, or its sandbox's, remembered
 * under its account (`ownKey`).
 *
 * @example
 * const memory = new FastMemory({ served, accounts, memory: { answersBytes: 2 ** 23, errorsBytes: 2 ** 20 } });
 * app.use(memory.remember());
 * memory.find(req); // { known, entry } once Koa answered the same GET from its cache
 */
export class FastMemory {
  private readonly urls: KnownUrls;
  /** Which POSTs may have a remembered answer (to a GraphQL query, by its body). */
  private readonly bodies = new KnownBodies();

  constructor(private readonly options: FastMemoryOptions) {
    this.urls = new KnownUrls(options.memory);
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
      // A simulated answer (`_delay`, `_fail`) is simulated again on every request, by Koa.
      if (targetTooLong(ctx.url) || !state.route || askedSimulation(ctx)) return;
      if (!this.options.served.ready) return;
      if (state.account && this.options.sandboxes?.readsOwn(state.account))
        return this.rememberOwn(ctx, state as RouteState & AuthState);
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
      } else if (error && (error.status === 400 || error.status === 404) && this.urls.repeated(ctx.url)) {
        answer = { error };
      } else if (error?.status === 429 && this.urls.repeated(ctx.url)) {
        answer = { refusedOnly: true };
      } else {
        return;
      }
      this.learn(ctx, ctx.url, { version: cache.version, budget: state.route.budget, answer });
    };
  }

  /**
   * Remembers a cached 200 of a GET that a student's sandbox gave, under its account. Its other
   * answers (a 404 of a record it deleted, a GraphQL POST) are left to Koa each time.
   */
  private rememberOwn(ctx: Context, state: RouteState & AuthState): void {
    const { sent } = ctx.state as SentState;
    if (ctx.method !== 'GET' || !sent || (ctx.status !== 200 && ctx.status !== 304)) return;
    const own = this.options.sandboxes!.builtView(state.account!.uuid);
    if (!own || sent.cacheControl === 'no-store' || own.cache.peek(sent.entry.key) !== sent.entry) return;
    this.learn(ctx, ownKey(state.account!.uuid, ctx.url), {
      version: own.cache.version,
      budget: state.route.budget,
      answer: { cacheKey: sent.entry.key, cacheControl: sent.cacheControl, picture: false },
      account: state.account!.uuid,
    });
  }

  /** Remembers the answer Koa gave to `ctx` under `key`, with the headers it was sent with. */
  private learn(
    ctx: Context,
    key: string,
    known: Pick<Known, 'version' | 'budget' | 'answer' | 'method' | 'account'>,
  ): void {
    // Every field, in one order, whatever the answer: a shared answer and a sandbox's then have
    // one hidden class, and the code that replays them stays monomorphic for both.
    this.urls.learn(key, variesOn(ctx.response.get('Vary')), ctx.req.headers, {
      version: known.version,
      budget: known.budget,
      answer: known.answer,
      method: known.method,
      account: known.account,
      base: pairsOf((ctx.state as BaseState).base ?? {}),
      headers: pairsOf(plain(ctx.response.headers), writtenHere(known.answer)),
      path: ctx.path,
      params: ctx.querystring ? ctx.query : undefined,
    });
  }

  /** What the app said to this request before, with the cached answer still held; else undefined. */
  find(req: IncomingMessage): Found | undefined {
    if (req.method !== 'GET' || lacksHost(req)) return undefined;
    const url = req.url ?? '';
    const account = this.ownSandbox(req);
    if (account !== undefined) {
      const known = this.urls.recall(ownKey(account, url), req.headers);
      // A read of its sandbox is a use of it (`SANDBOX_TTL`), as in Koa.
      return known && this.held(known, this.options.sandboxes!.viewOf(account));
    }
    const known = this.urls.recall(url, req.headers);
    return known && this.held(known);
  }

  /**
   * The account of the request's caller when it holds a sandbox and its token was verified
   * before (the common case); else undefined, and `finish` hands a sandboxed caller's request to Koa.
   */
  private ownSandbox(req: IncomingMessage): string | undefined {
    const { sandboxes, accounts } = this.options;
    const authorization = req.headers.authorization;
    if (!sandboxes || authorization === undefined || !this.options.served.ready) return undefined;
    const caller = recallBearer(authorization, accounts, req.socket)?.caller;
    return caller && sandboxes.readsOwn(caller) ? caller.uuid : undefined;
  }

  /**
   * `known` with the cached answer it replays, while that answer is held for the catalog served (`served`: a
   * sandbox's).
   */
  private held(known: Known, served?: Served): Found | undefined {
    if (!this.options.served.ready) return undefined;
    const { cache, pictures } = served ?? this.options.served.shared;
    if (known.version !== cache.version) return undefined;
    if (!('cacheKey' in known.answer)) return { known };
    // Looked up before anything is counted: a request is counted once, here or in Koa.
    const entry = (known.answer.picture ? pictures : cache).peek(known.answer.cacheKey);
    return entry && { known, entry };
  }

  /** Whether `req` is a POST worth reading ahead of Koa: one of a URL and length that has a remembered answer. */
  worthReading(req: IncomingMessage): boolean {
    return this.bodies.worthReading(req) && !lacksHost(req);
  }

  /** The answer remembered for a POST of `body` (read ahead), while it is held. */
  findPost(req: IncomingMessage, body: string): Found | undefined {
    const known = this.urls.recall(bodyKey(req.url ?? '', req.headers['content-type'], body), req.headers);
    return known && this.held(known);
  }
}
