import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { Context } from 'koa';
import { LRUCache } from 'lru-cache';
import type { ResponseCache } from '../served/cached-response.ts';
import type { Known } from './known-urls.ts';
import type { SentState } from './send.ts';

// What the fast path needs to replay a POST whose answer depends on its body (GraphQL queries):
// the route's word that it does, the bodies worth reading ahead of Koa, and the hand-over of a
// body read ahead to Koa's parser when no answer is known for it.

/** What a route leaves on `ctx.state` when the answer it sent depends on its body. */
export interface BodyState {
  /**
   * The body as the route read it (decoded, as text): with the URL and the headers in `Vary`, all the answer depends
   * on.
   */
  answeredFromBody?: string;
}

/**
 * Says that the cached answer `send` just sent depends on nothing but the URL, the headers in its
 * `Vary`, the `Content-Type` and `body`: the fast path may replay it to the same POST
 * (CONTRIBUTING.md, "What the fast path may replay").
 *
 * @example
 * send(ctx, entry, 'no-store');
 * answeredFromBody(ctx, ctx.request.rawBody);
 */
export function answeredFromBody(ctx: Context, body: string): void {
  (ctx.state as BodyState).answeredFromBody = body;
}

/**
 * A POST's answer the fast path may replay: sent from the response cache (and still held there)
 * by a route that says it depends on the body (`answeredFromBody`), whose body came as it is
 * (jsonBody wrote the coding it undid into the request's headers) with its length: the key it
 * is remembered under (`bodyKey`), what is replayed, and the length `KnownBodies` notes.
 */
export function answeredPost(
  ctx: Context,
  cache: ResponseCache,
): { key: string; answer: Known['answer']; length: string } | undefined {
  const body = (ctx.state as BodyState).answeredFromBody;
  const { sent } = ctx.state as SentState;
  const length = ctx.req.headers['content-length'];
  if (body === undefined || !sent || ctx.status !== 200 || length === undefined) return undefined;
  if (ctx.req.headers['content-encoding'] !== 'identity' || cache.peek(sent.entry.key) !== sent.entry) return undefined;
  const answer = { cacheKey: sent.entry.key, cacheControl: sent.cacheControl, picture: false };
  return { key: bodyKey(ctx.url, ctx.get('Content-Type'), body), answer, length };
}

/** The key a POST's answer is remembered under beside the GETs' URLs (which start with `/`). */
export function bodyKey(url: string, contentType: string | undefined, body: string): string {
  return `POST ${url}\n${contentType ?? ''}\n${body}`;
}

/** Bodies read ahead of Koa, which its parser reads instead of the request (see `parsedFrom`). */
const readAhead = new WeakMap<IncomingMessage, Buffer>();

/**
 * The URLs and body lengths of the POSTs whose answers are remembered: only a POST that may
 * have one is read ahead of Koa (any other goes to Koa untouched). At most 4,096 pairs; one
 * forgotten costs a replay, one kept after its answer went costs a read-ahead, never a wrong answer.
 */
export class KnownBodies {
  private readonly lengths = new LRUCache<string, true>({ max: 4096 });

  /** Notes that a POST to `url` with a body of `length` bytes has a remembered answer. */
  note(url: string, length: string): void {
    this.lengths.set(`${length} ${url}`, true);
  }

  /**
   * Whether `req` may have a remembered answer: a POST of a known URL and body length, its
   * bytes as they are (no content coding: the body read is the body parsed).
   */
  worthReading(req: IncomingMessage): boolean {
    if (req.method !== 'POST') return false;
    const { headers } = req;
    const length = headers['content-length'];
    if (length === undefined || headers['transfer-encoding'] !== undefined) return false;
    const coding = headers['content-encoding'];
    if (coding !== undefined && coding.trim().toLowerCase() !== 'identity') return false;
    return this.lengths.has(`${length} ${req.url ?? ''}`);
  }
}

/**
 * Reads the body of `req` whole, kept for Koa's parser should Koa answer it (`parsedFrom`):
 * its text, or undefined when the request broke off before its end (nothing is then answered).
 */
export function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', () => resolve(undefined));
    req.on('close', () => resolve(undefined));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      readAhead.set(req, body);
      resolve(body.toString('utf8'));
    });
  });
}

/**
 * `ctx`, or when the fast path read its body ahead of Koa, a view of it whose request stream
 * yields that body again (same headers): what a body parser reads from. The parser's results
 * (`ctx.request.body`, `rawBody`) land on the real request.
 *
 * @example
 * await bodyParser(options)(parsedFrom(ctx), next);
 */
export function parsedFrom(ctx: Context): Context {
  const body = readAhead.get(ctx.req);
  if (!body) return ctx;
  const again = Object.assign(Readable.from([body], { objectMode: false }), { headers: ctx.req.headers });
  return Object.create(ctx, { req: { value: again } }) as Context;
}
