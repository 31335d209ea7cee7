import { DELAYED_PER_CLIENT, FAIL_STATUSES, MAX_DELAY_MS } from '../http/simulation.ts';
import { parameter } from './parameters.ts';
import type { Json } from './schemas.ts';

/** `_delay` and `_fail`, for `components.parameters` when the simulation is on (`SIMULATE`, classroom mode). */
export const SIMULATION_PARAMETERS: Record<string, Json> = {
  SimulatedDelay: {
    name: '_delay',
    in: 'query',
    required: false,
    description:
      `Simulated latency: the answer is held this many milliseconds (\`SIMULATE\` or classroom mode). Counted in ` +
      `the rate limit like any request; ` +
      `a client with ${DELAYED_PER_CLIENT} delayed requests waiting gets a 429 for the next. Never a filter.`,
    schema: { type: 'integer', minimum: 0, maximum: MAX_DELAY_MS },
  },
  SimulatedFailure: {
    name: '_fail',
    in: 'query',
    required: false,
    description:
      'Simulated failure: the request is answered with this status in the one error shape, its message saying it ' +
      'is simulated (`Retry-After` on 429 and 503), ' +
      'after `_delay` if both are given; nothing is carried out. Counted in the rate limit like any request. ' +
      'Never a filter.',
    schema: { type: 'integer', enum: [...FAIL_STATUSES] },
  },
};

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);

/**
 * `paths` with `_delay` and `_fail` among the parameters of every operation (copied: operations share their parameter
 * lists).
 */
export function withSimulationParameters(paths: Record<string, Json>): Record<string, Json> {
  const added = Object.keys(SIMULATION_PARAMETERS).map(parameter);
  const withAdded = ([key, value]: [string, unknown]) => {
    if (!METHODS.has(key)) return [key, value];
    const operation = value as Json;
    return [key, { ...operation, parameters: [...((operation.parameters ?? []) as Json[]), ...added] }];
  };
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [path, Object.fromEntries(Object.entries(item).map(withAdded))]),
  );
}
