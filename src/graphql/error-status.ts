import { GraphQLError } from 'graphql';
import { HttpError } from '../lib/http-error.ts';

/**
 * A GraphQL error with the status the REST route would have answered in `extensions.status`:
 * an `HttpError`'s own (a mutation's 401, 403, 404, 409, 412, a filter's 400), 400 for a
 * request refused before it ran (a document or variables that do not check, a limit); an
 * error no resolver meant is left as it is (its incident report).
 *
 * @example
 * withRestStatus(new GraphQLError('Not found', { originalError: new HttpError(404, 'Not found') })).extensions;
 * // { status: 404 }
 */
export function withRestStatus(error: Readonly<GraphQLError | Error>): GraphQLError | Error {
  if (!(error instanceof GraphQLError)) return error;
  const original = error.originalError;
  const status = original instanceof HttpError ? original.status : error.path ? undefined : 400;
  if (status === undefined) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes ?? null,
    source: error.source ?? null,
    positions: error.positions ?? null,
    path: error.path ?? null,
    originalError: original ?? null,
    extensions: { ...error.extensions, status },
  });
}
