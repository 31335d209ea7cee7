import { statusText } from '../lib/status-text.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Context, Middleware } from 'koa';
import { HttpError } from '../lib/http-error.ts';
import type { AuthState } from './bearer.ts';
import { requestClient, type ProxyTrust } from './rate-limit.ts';

// Simulated latency and failures (`SIMULATE=on`, or classroom mode), for lessons on loading
// states and error handling: `_delay` holds an answer, `_fail` replaces it by an error.

/** The query parameters of the simulation, which are then no filter of a list. */
export const SIMULATION_PARAMS = ['_delay', '_fail'] as const;

/** The longest `_delay`, in milliseconds. */
export const MAX_DELAY_MS = 5000;

/** The statuses `_fail` may ask for. */
export const FAIL_STATUSES = [400, 401, 403, 404, 409, 429, 500, 503] as const;

/**
 * Delayed requests one client (an account, or an address) may have in flight; the next is a
 * 429. Each holds a connection for up to `MAX_DELAY_MS`: this keeps one client from holding
 * many, while a page that loads a few things at once still works.
 */
export const DELAYED_PER_CLIENT = 4;

/** Seconds a simulated 429 or 503, or a refused delay, asks the client to wait. */
const RETRY_AFTER_SECONDS = '1';

/** What the simulation leaves on `ctx.state`: that it is on, and whether this request asked for it. */
export interface SimulationState {
  simulation?: { asked: boolean };
}

/** Whether `name` is a parameter of the simulation, on for this request (a list then skips it). */
export function isSimulationParam(ctx: Context, name: string): boolean {
  return (
    (ctx.state as SimulationState).simulation !== undefined && (SIMULATION_PARAMS as readonly string[]).includes(name)
  );
}

/** Whether this request named a parameter of the simulation: its answer is never remembered for replay. */
export function askedSimulation(ctx: Context): boolean {
  return (ctx.state as SimulationState).simulation?.asked === true;
}

/** The one value of `name`, or a 400 naming it and what it takes. */
function single(ctx: Context, name: string, takes: string): string | undefined {
  const value = ctx.query[name];
  if (Array.isArray(value))
    throw new HttpError(400, `Parameter '${name}' was given ${value.length} times; give it once: ${takes}`);
  return value;
}

function readDelay(ctx: Context): number | undefined {
  const takes = `an integer from 0 to ${MAX_DELAY_MS} (milliseconds)`;
  const raw = single(ctx, '_delay', takes);
  if (raw === undefined) return undefined;
  if (!/^\d{1,4}$/.test(raw) || Number(raw) > MAX_DELAY_MS)
    throw new HttpError(400, `Parameter '_delay' must be ${takes}, got '${raw}'`);
  return Number(raw);
}

function readFail(ctx: Context): number | undefined {
  const takes = `one of ${FAIL_STATUSES.join(', ')}`;
  const raw = single(ctx, '_fail', takes);
  if (raw === undefined) return undefined;
  const status = FAIL_STATUSES.find((candidate) => String(candidate) === raw);
  if (status === undefined) throw new HttpError(400, `Parameter '_fail' must be ${takes}, got '${raw}'`);
  return status;
}

/** The simulated error of `_fail=status`, in the one error shape, saying it is simulated. */
function simulatedFailure(status: number): HttpError {
  const waits = status === 429 || status === 503;
  const headers: Record<string, string> = waits ? { 'Retry-After': RETRY_AFTER_SECONDS } : {};
  if (status === 429) headers['X-Rate-Limit-Retry-After-Seconds'] = RETRY_AFTER_SECONDS;
  return new HttpError(
    status,
    `Simulated ${status} ${statusText(status)}, as asked by _fail=${status}: nothing is wrong, the request was ` +
      `not carried out`,
    headers,
  );
}

/**
 * The simulation, a stage of the routes' admission (after the rate limits and the token
 * check, so its requests count in the caller's budget): `_delay=<ms>` holds the request that
 * long, then `_fail=<status>` answers that error, else the route answers. A bad value is a
 * 400 naming the parameter and what it takes; past `DELAYED_PER_CLIENT` delayed requests in
 * flight for one client, a 429.
 *
 * @example
 * new RouteTable([['rateLimit', …], ['bearerAuth', …], ['simulation', simulation(proxy)]]);
 * // GET /api/v1/actors?_delay=1500&_fail=503 → a 503 after 1.5 s
 */
export function simulation(proxy: ProxyTrust): Middleware<AuthState & SimulationState> {
  const delayed = new Map<string, number>();
  return async (ctx, next) => {
    if (ctx.method === 'OPTIONS') return next();
    const asked = SIMULATION_PARAMS.some((name) => ctx.query[name] !== undefined);
    ctx.state.simulation = { asked };
    if (!asked) return next();
    const delay = readDelay(ctx);
    const fail = readFail(ctx);
    if (delay !== undefined && delay > 0) {
      const { key, name } = requestClient(ctx.state.account, ctx.req, proxy);
      const inFlight = delayed.get(key) ?? 0;
      if (inFlight >= DELAYED_PER_CLIENT) {
        throw new HttpError(
          429,
          `Too many requests with _delay at once: ${name} has ${inFlight} waiting, the most one client may have; ` +
            `send the next once one has answered`,
          { 'Retry-After': RETRY_AFTER_SECONDS },
        );
      }
      delayed.set(key, inFlight + 1);
      try {
        await sleep(delay);
      } finally {
        const left = delayed.get(key)! - 1;
        if (left === 0) delayed.delete(key);
        else delayed.set(key, left);
      }
    }
    if (fail !== undefined) throw simulatedFailure(fail);
    return next();
  };
}
