import type { Catalog } from '../../catalog/catalog.ts';
import { graphqlEngine } from '../../graphql/engine.ts';
import { answerKey } from '../../graphql/answer-key.ts';
import { notJson, prototypeKey, tooLarge, wrongType } from '../../lib/json-request.ts';
import { utf8Length } from '../../lib/utf8.ts';
import { picturePrefix } from '../../reads/locate.ts';
import { acceptedLanguage } from '../../reads/request-query.ts';
import type { SiteManifest } from '../manifest.ts';
import { workerEntry } from './answer-cache.ts';
import type { SiteAnswer, SiteRequest } from './types.ts';

/** Whether a parsed body holds a key that would reach an object's prototype (what the server's parser refuses). */
function reachesPrototype(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  for (const key of Object.keys(value)) {
    const inner = (value as Record<string, unknown>)[key];
    if (key === '__proto__') return true;
    if (key === 'constructor' && typeof inner === 'object' && inner !== null && 'prototype' in inner) return true;
    if (reachesPrototype(inner)) return true;
  }
  return false;
}

/** A POST's JSON body as the server's `jsonBody` reads it, or its refusal. */
function parsedBody(request: SiteRequest, text: string, maxBytes: number): unknown {
  const type = (request.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw wrongType(['application/json'], type);
  if (utf8Length(text) > maxBytes) throw tooLarge(maxBytes);
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw notJson((error as Error).message);
  }
  if (reachesPrototype(body)) throw prototypeKey();
  return body;
}

/** What the worker's GraphQL needs from the site: its catalog, settings and how it answers (`SiteApi`). */
export interface GraphQLSite {
  catalog: Catalog;
  manifest: SiteManifest;
  /** The site's URL, base included (what picture paths are made absolute with). */
  origin: string;
  /** A built answer negotiated as the server's `send` does (ETag, 304, `Cache-Control`). */
  negotiated(
    request: SiteRequest,
    entry: ReturnType<typeof workerEntry>,
    cacheControl: string,
    vary: string[],
  ): SiteAnswer;
}

/**
 * `GET` and `POST /api/graphql` in a static site's worker: the server's GraphQL engine over the
 * site's catalog (mutations have no writer, so they answer as on a server that takes no writes),
 * answered as the server's endpoint answers: a kept query's answer with its ETag, every other
 * with `no-store`.
 */
export function siteGraphQL(site: GraphQLSite): (request: SiteRequest, body: string) => Promise<SiteAnswer> {
  const { catalog, manifest } = site;
  const engine = graphqlEngine({ ...manifest.graphql, maxPageSize: manifest.maxPageSize, log: console });
  return async (request, text) => {
    const vary: string[] = [];
    const preferred = acceptedLanguage({ header: request.header, vary: (name) => void vary.push(name) }, catalog);
    const origin = picturePrefix(catalog, () => site.origin);
    vary.push('Accept');
    const post = request.method === 'POST';
    const body = post ? parsedBody(request, text, 2 * manifest.graphql.limits.maxDocumentBytes) : undefined;
    const headers: Record<string, string> = {};
    for (const name of ['accept', 'content-type', 'accept-language']) {
      const value = request.header(name);
      if (value !== undefined) headers[name] = value;
    }
    const answered = await engine.run({
      method: request.method,
      url: request.url.pathname + request.url.search,
      headers,
      body,
      catalog,
      preferred,
      origin,
      mutations: { noWrites: 'this site is a read-only copy of the catalog; writes need the server' },
      // The data the site was exported from; a site has no change feed.
      version: () => manifest.version,
    });
    const kept = answerKey(
      {
        method: request.method,
        text: post ? text : request.url.search.slice(1),
        accept: request.header('accept') ?? '',
      },
      preferred,
      origin,
    );
    if (answered.keep && kept !== undefined) {
      const entry = workerEntry(answered.text, { 'Content-Type': answered.headers['content-type']! });
      const cacheControl = post ? 'no-store' : `public, max-age=${manifest.cacheSeconds}`;
      return site.negotiated(request, entry, cacheControl, vary);
    }
    const { bytes } = workerEntry(answered.text, {});
    return {
      status: answered.status,
      headers: { ...answered.headers, 'Cache-Control': 'no-store', 'Content-Length': String(bytes) },
      body: answered.text,
    };
  };
}
