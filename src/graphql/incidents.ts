import { GraphQLError, type ExecutionResult } from 'graphql';
import { incidentMessage, reportIncident, type IncidentLog } from '../http/incident.ts';
import { HttpError } from '../lib/http-error.ts';

/** Whether a field's error is one a resolver meant (ours name what was wrong) rather than a failure. */
function expected(error: GraphQLError): boolean {
  return (
    !error.originalError || error.originalError instanceof HttpError || error.originalError instanceof GraphQLError
  );
}

/**
 * An execution's result with every error no resolver expected reported once (one request id,
 * the first stack, every path) and replaced by one naming its field's path and quoting the
 * id, no details; the result as it was when there are none.
 *
 * @example
 * withIncidentsReported(result, log, 'POST /api/graphql');
 * // errors: [{ message: 'Internal error (request id 5f0c2a9e1b7d)', path: ['episodes', 'items', 0, 'title'] }]
 */
export function withIncidentsReported(
  result: ExecutionResult,
  log: IncidentLog,
  request: string,
): ExecutionResult | undefined {
  const unexpected = result.errors?.filter((error) => !expected(error)) ?? [];
  if (unexpected.length === 0) return undefined;
  const paths = unexpected.map((error) => error.path?.join('.') ?? '(no path)');
  const id = reportIncident(
    log,
    `GraphQL error on ${request} at ` +
      `${paths.slice(0, 5).join(', ')}${paths.length > 5 ? ` and ${paths.length - 5} more` : ''}`,
    unexpected[0]!.originalError,
  );
  const message = incidentMessage(id);
  const errors = result.errors!.map((error) =>
    expected(error) ? error : new GraphQLError(message, { nodes: error.nodes ?? null, path: error.path ?? null }),
  );
  return { ...result, errors };
}
