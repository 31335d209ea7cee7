import type { IncomingMessage } from 'node:http';
import accepts from 'accepts';
import type { Context, Middleware } from 'koa';
import type { Logger } from '../config/logger.ts';
import { errorJson, type ErrorFields } from '../lib/error-json.ts';
import { HttpError } from '../lib/http-error.ts';
import { statusText } from '../lib/status-text.ts';
import { memo } from '../lib/memo.ts';
import { SECURITY_HEADERS } from './headers.ts';
import { reportIncident } from './incident.ts';

/** Headers of a success that must not stay on an error answer. */
const SUCCESS_ONLY = ['ETag', 'Cache-Control', 'Content-Encoding', 'Content-Language', 'Last-Modified'];

/** What `renderError` leaves on `ctx.state`: the fields of the error it rendered. */
export interface RenderedState {
  rendered?: ErrorFields;
}

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => escapes[c]!);

/**
 * Whether an `Accept` value prefers an HTML page to JSON, remembered per value (a flood of 429s asks it every time).
 */
const prefersHtml = memo(
  (accept) => accepts({ headers: { accept } } as IncomingMessage).type(['json', 'html']) === 'html',
  { entries: 1000, maxLength: 200 },
);

/**
 * The body of an error answer and its type: the one JSON shape, except that a 429 asked for
 * by a browser page (which prefers `text/html`) gets a short page saying the same, so a
 * person who reloaded a page too often reads why rather than raw JSON.
 *
 * @example
 * errorBody(fields, req); // { type: 'application/json', body: '{"code":404,...}' }
 */
export function errorBody(fields: ErrorFields, req: IncomingMessage): { type: string; body: string } {
  if (fields.status === 429 && prefersHtml(req.headers.accept ?? '')) {
    const title = `${fields.status} ${statusText(fields.status)}`;
    const page =
      `<!doctype html>\n<html lang="en"><meta charset="utf-8"><title>${title}</title>\n<h1>${title}</h1>\n` +
      `<p>${escapeHtml(fields.message)}</p>\n</html>\n`;
    return { type: 'text/html; charset=utf-8', body: page };
  }
  // Exactly this type: the official JS client parses error bodies only when it matches.
  return { type: 'application/json', body: errorJson(fields) };
}

/** Writes `status` and its error body onto the response (with the request id of an incident). */
export function renderError(
  ctx: Context,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  requestId?: string,
): void {
  for (const name of SUCCESS_ONLY) ctx.remove(name);
  ctx.status = status;
  ctx.set(headers);
  const fields: ErrorFields = {
    status,
    method: ctx.method,
    message,
    url: ctx.path,
    ...(ctx.querystring ? { params: ctx.query } : {}),
    ...(requestId ? { request_id: requestId } : {}),
  };
  (ctx.state as RenderedState).rendered = fields;
  const { type, body } = errorBody(fields, ctx.req);
  ctx.body = body;
  ctx.set('Content-Type', type);
  ctx.set('Cache-Control', 'no-store');
}

/** An error from anywhere below, as a status and a message fit to show the client. */
function describe(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  const e = error as { status?: unknown; expose?: unknown; message?: unknown; headers?: unknown };
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500 && e.expose) {
    return new HttpError(e.status, String(e.message), (e.headers as Record<string, string>) ?? {});
  }
  return undefined;
}

/**
 * Renders every failure in the one error shape: thrown errors, anything nothing answered
 * (404) and anything unexpected (500: logged with a request id the answer's `request_id` quotes, nothing else shown).
 */
export function errorHandler(log: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && (ctx.body === undefined || ctx.body === null))
        throw new HttpError(404, `No route for ${ctx.method} ${ctx.path}`);
    } catch (error) {
      const known = describe(error);
      if (known) return renderError(ctx, known.status, known.message, known.headers);
      renderError(
        ctx,
        500,
        'Internal server error',
        {},
        reportIncident(log, `500 on ${ctx.method} ${ctx.path}`, error),
      );
    }
  };
}

/**
 * A whole HTTP/1.1 error answer as text, for the requests Node turns away before any
 * handler runs (unparsable, timed out, CONNECT): the same shape, then the connection closes.
 *
 * @example
 * socket.end(
 *   rawErrorAnswer({ status: 408, method: 'POST', url: '/api/v1/auth/register', message: 'Request took too long' }),
 * );
 */
export function rawErrorAnswer(fields: ErrorFields, headers: Record<string, string> = {}): string {
  const body = errorJson(fields);
  const lines = Object.entries({ ...SECURITY_HEADERS, ...headers }).map(([name, value]) => `${name}: ${value}\r\n`);
  return (
    `HTTP/1.1 ${fields.status} ${statusText(fields.status)}\r\nContent-Type: application/json\r\nContent-Length: ` +
    `${Buffer.byteLength(body)}\r\n` +
    `Cache-Control: no-store\r\n${lines.join('')}Connection: close\r\n\r\n${body}`
  );
}
