import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import accepts from 'accepts';
import fresh from 'fresh';
import type { Middleware } from 'koa';
import { LRUCache } from 'lru-cache';
import type { Logger } from '../config/logger.ts';
import { accessLine } from './access-log.ts';
import type { SentState } from './response-cache.ts';
import type { ServedCatalog } from './state.ts';

/** A request the app answered from the response cache, as the fast path replays it. */
interface Known {
  version: string;
  cacheKey: string;
  /** Every header the app sent but the per-variant ones (ETag, encoding, length). */
  headers: Record<string, string>;
}

/** Headers that change with the encoding sent or the moment, set anew on every answer. */
const PER_ANSWER = new Set(['etag', 'content-encoding', 'content-length', 'date']);

/** Koa's 304 carries no body, so neither these. */
const NOT_ON_304 = ['content-type'];

/** The URLs remembered (a few hundred bytes each); the answers themselves stay in the response cache. */
const MAX_KNOWN = 20_000;

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

  /** Koa middleware, outermost: remembers each 200 that `send` served from the cache. */
  remember(): Middleware {
    return async (ctx, next) => {
      await next();
      const sent = (ctx.state as SentState).sent;
      if (!sent || ctx.method !== 'GET' || ctx.status !== 200 || ctx.get('Authorization')) return;
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(ctx.response.headers)) {
        if (!PER_ANSWER.has(name) && value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
      }
      const varies = /\baccept-language\b/i.test(headers.vary ?? '');
      const key = FastPath.key(ctx.url, varies ? ctx.get('Accept-Language') : undefined);
      this.known.set(key, { version: this.served.current.cache.version, cacheKey: sent.key, headers });
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
    const entry = cache.peek(known.cacheKey);
    if (!entry) return false;
    const started = performance.now();
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
    if (this.logAccess) this.log.info(accessLine('GET', url.split('?')[0]!, res.statusCode, performance.now() - started));
    return true;
  }
}
