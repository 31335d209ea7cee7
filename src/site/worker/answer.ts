import fresh from 'fresh';
import { pathToRegexp } from 'path-to-regexp';
import { errorJson } from '../../lib/error-json.ts';
import { HttpError } from '../../lib/http-error.ts';
import { parseQuery } from '../../lib/query-string.ts';
import { readRoutes } from '../../reads/routes.ts';
import { checkTarget } from '../../reads/target.ts';
import { PICTURE_CACHE_CONTROL, pictureHeaders } from '../../reads/pictures.ts';
import { drawnPictureAt } from '../../catalog/pictures/drawn-pictures.ts';
import type { ReadExchange, ReadHandler, ReadSettings } from '../../reads/types.ts';
import type { FixedAnswer, SiteManifest } from '../manifest.ts';
import { bytesTag, WorkerCache, workerEntry, type WorkerEntry } from './answer-cache.ts';
import { siteGraphQL } from './graphql.ts';
import { pictureNeeds, readNeeds } from './needs.ts';
import { ALL_FAMILIES, type SiteCatalog } from './site-catalog.ts';
import type { SiteAnswer, SiteRequest } from './types.ts';

/** A read route matched as @koa/router matches it: path-to-regexp, any case, an optional trailing slash. */
interface MatchedRoute {
  regexp: RegExp;
  names: string[];
  handler: ReadHandler;
}

const decodeParam = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** The paths whose every method is a write of the server: answered 405 on the site, GET included. */
const WRITE_ONLY = /^\/api\/v1\/(?:auth\/|sandbox(?:es)?\/?$)/;

/**
 * The read API of a static site, answered in the browser by the server's own read routes:
 * the same status, bytes and API headers (`Link`, `X-Pagination-*`, `ETag` and 304,
 * `Content-Language`, the error shape) as the server gives for the same catalog, with
 * `base` before every path it builds. Writes are 405s naming the site as read-only.
 */
export class SiteApi {
  private readonly routes: MatchedRoute[];
  private readonly cache = new WorkerCache();
  private readonly settings: ReadSettings;
  /** Built on the first GraphQL request: the schema and graphql-js cost more than the reads. */
  private graphql?: ReturnType<typeof siteGraphQL>;

  constructor(
    private readonly catalog: SiteCatalog,
    private readonly manifest: SiteManifest,
    /** The site's base path, with its trailing slash: `/` or `/<repo>/`. */
    private readonly base: string,
    /** Where the site lives, base included, without a trailing slash: what pictures and `/api` name. */
    origin: string,
  ) {
    this.settings = { ...manifest, publicUrl: origin };
    this.routes = readRoutes(this.settings).map(({ path, handler }) => {
      const { regexp, keys } = pathToRegexp(path, { sensitive: false, trailing: true });
      return { regexp, names: keys.map((key) => key.name), handler };
    });
  }

  /** The API path of a site path (`/repo/api/v1/actors` → `/api/v1/actors`), or undefined outside the base. */
  private apiPath(path: string): string | undefined {
    return path.startsWith(this.base) ? path.slice(this.base.length - 1) : undefined;
  }

  /**
   * A picture the catalog draws (`drawnPictureAt`), answered as the server answers it (type,
   * `nosniff`, policy, ETag, 304); undefined for a contributor's file or a path no record names,
   * which the site's files answer.
   */
  async answerPicture(request: SiteRequest, path: string): Promise<SiteAnswer | undefined> {
    if (this.manifest.pictureFiles.includes(path)) return undefined;
    await this.catalog.need(pictureNeeds(path, this.manifest));
    const svg = drawnPictureAt(this.catalog, path);
    if (svg === undefined) return undefined;
    const entry: WorkerEntry = {
      ...workerEntry(svg, {}),
      headers: pictureHeaders('image/svg+xml'),
      etag: bytesTag(svg),
    };
    return this.negotiated(request, entry, PICTURE_CACHE_CONTROL, []);
  }

  /** `GET` or `POST /api/graphql` with an operation (`siteGraphQL`), or its refusal in the one error shape. */
  async answerGraphQL(request: SiteRequest, body: string): Promise<SiteAnswer> {
    try {
      await this.catalog.need(ALL_FAMILIES);
      this.graphql ??= siteGraphQL({
        catalog: this.catalog,
        manifest: this.manifest,
        origin: this.settings.publicUrl!,
        negotiated: (...args) => this.negotiated(...args),
      });
      return await this.graphql(request, body);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      return this.error(request, error, request.url.search.slice(1));
    }
  }

  /** The answer to `request`, a read route's or an error in the one shape. */
  async answer(request: SiteRequest): Promise<SiteAnswer> {
    const path = this.apiPath(request.url.pathname)!;
    const querystring = request.url.search.slice(1);
    try {
      await this.catalog.need(readNeeds(path, request.url.searchParams));
      return this.route(request, path, querystring);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      return this.error(request, error, querystring);
    }
  }

  private route(request: SiteRequest, path: string, querystring: string): SiteAnswer {
    const { method } = request;
    // The API's target, without the base: a request is refused alike wherever the site lives.
    checkTarget(path + request.url.search);
    if ((method !== 'GET' && method !== 'HEAD') || WRITE_ONLY.test(path))
      throw new HttpError(
        405,
        `This site is a read-only copy of the catalog: ${method} ${request.url.pathname} needs the server ` +
          `(writes, accounts and sandboxes are not served here); allowed: GET, HEAD`,
        { Allow: 'GET, HEAD' },
      );
    if (path === '/api/v1/changes')
      throw new HttpError(
        501,
        `This site is a copy of the catalog frozen at its export (data version ${this.catalog.version}): it has ` +
          `no change feed; the server it was exported from has one`,
      );
    for (const { regexp, names, handler } of this.routes) {
      const match = regexp.exec(path);
      if (!match) continue;
      const params = Object.fromEntries(names.map((name, i) => [name, decodeParam(match[i + 1] ?? '')]));
      let sent: SiteAnswer | undefined;
      const vary: string[] = [];
      const exchange: ReadExchange<WorkerEntry> = {
        path,
        publicPath: request.url.pathname,
        querystring,
        query: parseQuery(querystring),
        params,
        served: { catalog: this.catalog, cache: this.cache, version: this.catalog.version },
        header: (name) => request.header(name),
        vary: (name) => void (vary.includes(name) || vary.push(name)),
        origin: () => this.settings.publicUrl!,
        ignores: () => false,
        send: (entry, cacheControl) => (sent = this.negotiated(request, entry, cacheControl, vary)),
        stream: (chunks, headers, cacheControl) => (sent = this.whole(request, chunks, headers, cacheControl, vary)),
      };
      handler(exchange);
      return sent!;
    }
    throw new HttpError(404, `No route for ${method} ${request.url.pathname}`);
  }

  /**
   * A streamed answer (a large CSV list), joined: the site's catalog is in the browser's memory
   * already. Like the server's, it has no ETag and no `Content-Length`.
   */
  whole(
    request: SiteRequest,
    chunks: Iterable<string>,
    given: Record<string, string>,
    cacheControl: string,
    vary: string[],
  ): SiteAnswer {
    const headers: Record<string, string> = { ...given, 'Cache-Control': cacheControl };
    if (vary.length) headers.Vary = vary.join(', ');
    return { status: 200, headers, body: request.method === 'HEAD' ? undefined : [...chunks].join('') };
  }

  /** An answer the export saved whole (`SiteManifest.fixed`), negotiated as the server negotiates it. */
  fixedAnswer(request: SiteRequest, fixed: FixedAnswer, text: string): SiteAnswer {
    const body = request.method === 'HEAD' ? undefined : text;
    const entry: WorkerEntry = { ...workerEntry(text, {}), headers: { 'Content-Type': fixed.type } };
    if (!fixed.cacheControl)
      return { status: 200, headers: { ...entry.headers, 'Content-Length': String(entry.bytes) }, body };
    return this.negotiated(request, entry, fixed.cacheControl, []);
  }

  /**
   * A built answer with `Cache-Control`, `Vary` and its ETag, or a 304 when `If-None-Match` holds it (as the server's
   * `negotiate`).
   */
  negotiated(request: SiteRequest, entry: WorkerEntry, cacheControl: string, vary: string[]): SiteAnswer {
    const headers: Record<string, string> = { ...entry.headers, 'Cache-Control': cacheControl };
    headers['Content-Length'] = String(entry.bytes);
    if (vary.length) headers.Vary = vary.join(', ');
    if (cacheControl === 'no-store')
      return { status: 200, headers, body: request.method === 'HEAD' ? undefined : entry.json };
    const etag = (headers.ETag = `"${entry.etag}"`);
    const asked = {
      'if-none-match': request.header('if-none-match'),
      'cache-control': request.header('cache-control'),
    };
    if (fresh(asked, { etag })) {
      delete headers['Content-Type'];
      delete headers['Content-Disposition'];
      delete headers['Content-Length'];
      return { status: 304, headers };
    }
    return { status: 200, headers, body: request.method === 'HEAD' ? undefined : entry.json };
  }

  /** An error in the one shape, as the server renders it (`params` when there was a query). */
  private error(request: SiteRequest, error: HttpError, querystring: string): SiteAnswer {
    const body = errorJson({
      status: error.status,
      method: request.method,
      message: error.message,
      url: request.url.pathname,
      ...(querystring ? { params: parseQuery(querystring) } : {}),
    });
    const { bytes } = workerEntry(body, {});
    const headers = { ...error.headers, 'Content-Type': 'application/json', 'Cache-Control': 'no-store' };
    return { status: error.status, headers: { ...headers, 'Content-Length': String(bytes) }, body };
  }
}
