import type { Router } from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { Budget } from '../limits/rate-limits.ts';
import { HttpError } from '../lib/http-error.ts';

/** The budget a route counts in; `free` routes (health check, reference page) count in none. */
export type RouteBudget = Budget | 'free';

/** Which requests of a route a marker applies to; the others count as `api`. */
type RequestTest = (ctx: Context) => boolean;

/** A route's budget marker: the first middleware of a route that does not count as `api`. */
type Marker = Middleware & { budget: RouteBudget; applies?: RequestTest };

/**
 * Marks the route it is registered with as counting in `budget` instead of `api`: every
 * request of it, or those `applies` accepts (a path that serves a page and an API alike).
 *
 * @example
 * router.post('/api/v1/auth/register', countsIn('auth'), jsonBody(), register);
 * router.get('/api/ping', countsIn('free'), ping);
 * router.get('/api/graphql', countsIn('free', wantsGraphiQL), answer);
 */
export function countsIn(budget: RouteBudget, applies?: RequestTest): Marker {
  const marker = ((_ctx, next) => next()) as Marker;
  marker.budget = budget;
  if (applies) marker.applies = applies;
  return marker;
}

/** What routing decided about a request, for the limits and the 404/405 answer. */
export interface RouteState {
  route: { budget: RouteBudget; allowed: string[] };
}

/**
 * Decides once what a request is, with the router's own matching (so any spelling the router
 * would serve, in any case or with a trailing slash, is classified as what it is served as):
 * the budget of the route that serves it (`api` for anything else, unknown paths and methods
 * a path lacks included) and the methods that path allows.
 */
export function classify(router: Router): Middleware<RouteState> {
  return (ctx, next) => {
    const matched = router.match(ctx.path, ctx.method);
    const layers = matched.path.filter((layer) => layer.methods.length > 0);
    // The route that serves the request (the first matching its method too) decides: another
    // route of a path that also matches (`/api/graphql/:file` for `schema.graphql`) does not.
    const serving = matched.pathAndMethod.find((layer) => layer.methods.length > 0)?.stack[0] as Partial<Marker> | undefined;
    const marked = serving?.budget !== undefined && (!serving.applies || serving.applies(ctx));
    ctx.state.route = { budget: marked ? serving.budget! : 'api', allowed: [...new Set(layers.flatMap((layer) => layer.methods))] };
    return next();
  };
}

/**
 * After the router: a path no route has is a 404; a path whose routes lack the method is a
 * 405 with `Allow` (any method, standard or not), and `OPTIONS` on it lists them with a 204.
 */
export function noRoute(): Middleware<RouteState> {
  return async (ctx, next) => {
    await next();
    if (ctx.body !== undefined && ctx.body !== null) return;
    if (ctx.status !== 404) return;
    const { allowed } = ctx.state.route;
    if (allowed.length === 0) throw new HttpError(404, `No route for ${ctx.method} ${ctx.path}`);
    const allow = allowed.join(', ');
    if (ctx.method === 'OPTIONS') {
      ctx.set('Allow', allow);
      ctx.status = 204;
      return;
    }
    throw new HttpError(405, `Method ${ctx.method} is not allowed on ${ctx.path}; allowed: ${allow}`, { Allow: allow });
  };
}
