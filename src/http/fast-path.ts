import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import accepts from 'accepts';
import fresh from 'fresh';
import type { Middleware } from 'koa';
import { LRUCache } from 'lru-cache';
import type { Logger } from '../config/logger.ts';
import { accessLine } from './access-log.ts';
import { errorJson, type ErrorFields, type RenderedState } from './errors.ts';
import type { SentState } from './response-cache.ts';
import type { ServedCatalog } from './state.ts';

/**
 * A request the app answered, as the fast path replays it: from the response cache, or as a
 * client error (a 404 or 400 depends only on the URL and the data; its body is rendered
 * anew, with the time of this request).
 */
type Known = {
  version: string;
  /** Every header the app sent but the per-variant ones (ETag, encoding, length). */
  headers: Record<string, string>;
} & ({ cacheKey: string } | { error: ErrorFields });

/** Headers that change with the encoding sent or the moment, set anew on every answer. */
const PER_ANSWER = new Set(['etag', 'content-encoding', 'content-length', 'date']);

/** Koa's 304 carries no body, so neither these. */
const NOT_ON_304 = ['content-type'];

/** The URLs remembered (a few hundred bytes each); the answers themselves stay in the response cache. */
const MAX_KNOWN = 20_000;

/** Longer URLs are left to Koa: an error record holds its query, and memory must stay small. */
const MAX_URL = 2048;

/**
 * Answers repeated catalog reads without going through Koa: once the app has answered a GET
 * from its response cache, the same URL (and `Accept-Language`, where the answer varies on
 * it) is answered straight from that cache with the headers the app sent, negotiating the
 * encoding and `If-None-Match` the same way (the same `accepts` and `fresh` packages Koa
 * uses). Requests with a bearer token, other methods and anything not seen before go to Koa.
 * Only installed when rate limits are off: the limiter has to see every request.
 *
 * @example
 * const fast = new FastPath(served, log, true);
 * app.use(fast.remember()); // outermost
 * createServer(fast.listener(app.callback()));
 */
export class FastPath {
  private readonly known = new LRUCache<string, Known>({ max: MAX_KNOWN });

  constructor(
    private readonly served: ServedCatalog,
    private readonly log: Logger,
    private readonly logAccess: boolean,
  ) {}

  private static key(url: string, language?: string): string {
    return language === undefined ? url : `${url}\n${language}`;
  }

  /**
   * Koa middleware, outermost: remembers each 200 that `send` served from the cache and each
   * 400/404 of a GET. (Other client errors need a token, a body or a rate limit, which never
   * reach the fast path.)
   */
  remember(): Middleware {
    return async (ctx, next) => {
      await next();
      if (ctx.method !== 'GET' || ctx.get('Authorization') || ctx.url.length > MAX_URL) return;
      const sent = (ctx.state as SentState).sent;
      const error = (ctx.state as RenderedState).rendered;
      const replayable = sent ? ctx.status === 200 : error && (error.status === 400 || error.status === 404);
      if (!replayable) return;
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(ctx.response.headers)) {
        if (!PER_ANSWER.has(name) && value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
      }
      const varies = /\baccept-language\b/i.test(headers.vary ?? '');
      const key = FastPath.key(ctx.url, varies ? ctx.get('Accept-Language') : undefined);
      const version = this.served.current.cache.version;
      this.known.set(key, sent ? { version, headers, cacheKey: sent.key } : { version, headers, error: error! });
    };
  }

  /** The server's request listener: the fast answer when there is one, else `app`. */
  listener(app: RequestListener): RequestListener {
    return (req, res) => {
      if (!this.answer(req, res)) app(req, res);
    };
  }

  private answer(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' || req.headers.authorization !== undefined) return false;
    const url = req.url ?? '';
    const known = this.known.get(url) ?? this.known.get(FastPath.key(url, req.headers['accept-language'] ?? ''));
    const { cache } = this.served.current;
    if (!known || known.version !== cache.version) return false;
    const started = performance.now();
    if ('error' in known) {
      const body = errorJson(known.error);
      res.writeHead(known.error.status, { ...known.headers, 'content-length': String(Buffer.byteLength(body)) }).end(body);
    } else if (!this.replay(req, res, known)) {
      return false;
    }
    if (this.logAccess) this.log.info(accessLine('GET', url.split('?')[0]!, res.statusCode, performance.now() - started));
    return true;
  }

  /** Sends the cached answer `known` names, or returns false when the cache let it go. */
  private replay(req: IncomingMessage, res: ServerResponse, known: { cacheKey: string; headers: Record<string, string> }): boolean {
    const entry = this.served.current.cache.peek(known.cacheKey);
    if (!entry) return false;
    const negotiator = accepts(req);
    const encoding = entry.encodingFor((...encodings) => negotiator.encodings(encodings));
    const etag = entry.etagFor(encoding);
    if (fresh(req.headers, { etag })) {
      const headers: Record<string, string> = { ...known.headers, etag };
      for (const name of NOT_ON_304) delete headers[name];
      res.writeHead(304, headers).end();
    } else {
      const body = entry.bytes(encoding);
      const headers: Record<string, string> = { ...known.headers, etag, 'content-length': String(body.length) };
      if (encoding !== 'identity') headers['content-encoding'] = encoding;
      res.writeHead(200, headers).end(body);
    }
    return true;
  }
}
