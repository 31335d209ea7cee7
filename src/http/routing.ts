import { Router } from '@koa/router';
import compose from 'koa-compose';
import type { Context, Middleware } from 'koa';
import type { Budget } from '../limits/rate-limits.ts';
import { HttpError } from '../lib/http-error.ts';

/** The budget a route counts in; `free` routes (health check, reference page) count in none. */
export type RouteBudget = Budget | 'free';

/** Which requests of a route a budget applies to; the others count as `api`. */
type RequestTest = (ctx: Context) => boolean;

/** A route's budget, declared first among its middleware when it is not `api`. */
export interface BudgetDeclaration {
  budget: RouteBudget;
  applies?: RequestTest;
}

/**
 * Declares that the route it is registered with counts in `budget` instead of `api`: every
 * request of it, or those `applies` accepts (a path that serves a page and an API alike).
 *
 * @example
 * routes.post('/api/v1/auth/register', countsIn('auth'), jsonBody(), register);
 * routes.get('/api/ping', countsIn('free'), ping);
 * routes.get('/api/graphql', countsIn('free', wantsGraphiQL), answer);
 */
export function countsIn(budget: RouteBudget, applies?: RequestTest): BudgetDeclaration {
  return applies ? { budget, applies } : { budget };
}

/** What routing decided about a request: the budget it counts in. */
export interface RouteState {
  route: { budget: RouteBudget };
}

type Handlers = [BudgetDeclaration, ...Middleware[]] | Middleware[];

const isDeclaration = (value: unknown): value is BudgetDeclaration =>
  typeof value === 'object' && value !== null && 'budget' in value;

/**
 * The service's routes: each registered with @koa/router, which matches a request once, and
 * with the budget it counts in, declared beside it. Before its own middleware, a request goes
 * through the admission (the rate limits, the token check) once, knowing its budget; a request
 * no route serves is admitted in `api`, then answered 404, or 405 with `Allow` when its path
 * has routes for other methods (`OPTIONS` on it lists them with a 204).
 *
 * @example
 * const routes = new RouteTable([['rateLimit', rateLimit(…)], ['bearerAuth', bearerAuth(accounts)]]);
 * routes.get('/api/ping', countsIn('free'), ping);
 * app.use(routes.middleware());
 */
export class RouteTable {
  readonly #router = new Router();
  readonly #admitted = new WeakSet<Context>();
  readonly #admission: Middleware;
  readonly #listed: { method: string; path: string }[] = [];
  /** The admission's middleware, by name, in order (the fast path stands in for each). */
  readonly stages: readonly string[];

  constructor(admission: readonly (readonly [string, Middleware | undefined])[]) {
    const used = admission.filter((stage): stage is readonly [string, Middleware] => stage[1] !== undefined);
    this.stages = used.map(([name]) => name);
    this.#admission = compose(used.map(([, middleware]) => middleware));
    this.#router.on('not-found', this.#admit({ budget: 'api' }));
  }

  get(path: string, ...handlers: Handlers): void {
    this.#add('get', path, handlers);
  }

  post(path: string, ...handlers: Handlers): void {
    this.#add('post', path, handlers);
  }

  patch(path: string, ...handlers: Handlers): void {
    this.#add('patch', path, handlers);
  }

  delete(path: string, ...handlers: Handlers): void {
    this.#add('delete', path, handlers);
  }

  #add(method: 'get' | 'post' | 'patch' | 'delete', path: string, [first, ...rest]: Handlers): void {
    const declared = isDeclaration(first) ? first : undefined;
    const own = (declared ? rest : [first, ...rest]) as Middleware[];
    this.#router[method](path, this.#admit(declared ?? { budget: 'api' }), ...own);
    this.#listed.push({ method: method.toUpperCase(), path });
  }

  /** Every route registered so far, in matching order: its method and its path (`:name` for a parameter). */
  get listed(): readonly { method: string; path: string }[] {
    return this.#listed;
  }

  /** Admits a request once, in the budget of the first route that serves it. */
  #admit({ budget, applies }: BudgetDeclaration): Middleware {
    return (ctx, next) => {
      if (this.#admitted.has(ctx)) return next();
      this.#admitted.add(ctx);
      (ctx.state as RouteState).route = { budget: !applies || applies(ctx) ? budget : 'api' };
      return this.#admission(ctx, next);
    };
  }

  /** The routes, then the 404 or 405 of a request none of them answered; `table` is this table, for tests to read. */
  middleware(): Middleware & { table: RouteTable } {
    const routes = this.#router.routes();
    const middleware: Middleware = (ctx, next) =>
      routes(ctx as Parameters<typeof routes>[0], () => unanswered(ctx, next));
    return Object.assign(middleware, { table: this });
  }
}

/** The 404, or the 405 with `Allow` (or an `OPTIONS` 204), of a request no route answered. */
function unanswered(ctx: Context, next: () => Promise<unknown>): Promise<unknown> {
  if (ctx.status !== 404 || (ctx.body !== undefined && ctx.body !== null)) return next();
  const layers = (ctx as Context & { matched?: { methods: string[] }[] }).matched ?? [];
  const allowed = [...new Set(layers.flatMap((layer) => layer.methods))];
  if (allowed.length === 0) throw new HttpError(404, `No route for ${ctx.method} ${ctx.path}`);
  const allow = allowed.join(', ');
  if (ctx.method !== 'OPTIONS')
    throw new HttpError(405, `Method ${ctx.method} is not allowed on ${ctx.path}; allowed: ${allow}`, { Allow: allow });
  ctx.set('Allow', allow);
  ctx.status = 204;
  return Promise.resolve();
}
