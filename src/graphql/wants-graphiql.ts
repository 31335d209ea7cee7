import Negotiator from 'negotiator';

/** The media types `/api/graphql` answers a GET in, GraphiQL's page last. */
const OFFERED = ['application/graphql-response+json', 'application/json', 'text/html'];

/**
 * Whether a request of `/api/graphql` asks for GraphiQL: a GET (or HEAD) that sent no query,
 * from a browser (HTML preferred to JSON, as Koa's `ctx.accepts` negotiates it). The server's
 * routes and a static site's worker ask it alike.
 *
 * @example
 * wantsGraphiQL('GET', false, 'text/html,application/xhtml+xml,*\/*;q=0.8'); // true
 */
export function wantsGraphiQL(method: string, hasQuery: boolean, accept: string | undefined): boolean {
  if ((method !== 'GET' && method !== 'HEAD') || hasQuery) return false;
  const preferred = accept === undefined ? OFFERED[0] : new Negotiator({ headers: { accept } }).mediaTypes(OFFERED)[0];
  return preferred === 'text/html';
}
