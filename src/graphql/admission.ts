import { GraphQLError, getOperationAST, getVariableValues, type ExecutionArgs, type GraphQLSchema } from 'graphql';
import type { DocumentCache } from './documents.ts';
import { costError, costOf, type GraphQLLimits } from './limits.ts';
import type { GraphQLContext } from './context.ts';
import { variablesError } from './variables.ts';

/** One request's operation, as graphql-http hands it over. */
export interface OperationRequest {
  query: string;
  variables?: Record<string, unknown> | null | undefined;
  operationName?: string | null | undefined;
}

/** An operation let through: what execution takes, its estimated cost, and whether it asks for a random record. */
export interface Admitted {
  args: ExecutionArgs & { contextValue: GraphQLContext };
  cost: number;
  random: boolean;
}

/**
 * Every check a request passes before anything runs, each refusal a GraphQL error naming what
 * was wrong: the document (size, tokens, selections, then the spec's rules, depth and aliases:
 * `DocumentCache`), the operation named, the variables (nesting and size, then their types:
 * `getVariableValues`, as execution would), and the estimated cost.
 *
 * @example
 * const admitted = admit({ query: '{ overview { title } }' }, { schema, documents, limits, context });
 * if (Array.isArray(admitted)) return admitted; // the errors
 */
export function admit(
  request: OperationRequest,
  options: { schema: GraphQLSchema; documents: DocumentCache; limits: GraphQLLimits; context: GraphQLContext },
): Admitted | readonly GraphQLError[] {
  const { schema, documents, limits, context } = options;
  const checked = documents.check(request.query);
  if (checked.errors) return checked.errors;
  const { document } = checked;
  const operationName = request.operationName ?? undefined;
  const operation = getOperationAST(document, operationName);
  if (!operation)
    return [
      new GraphQLError(
        operationName
          ? `Unknown operation named "${operationName}".`
          : 'Must provide operation name if query contains multiple operations.',
      ),
    ];
  const variables = request.variables ?? {};
  const tooLarge = variablesError(variables, limits);
  if (tooLarge) return [tooLarge];
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 10 });
  if (coerced.errors) return coerced.errors;
  const cost = costOf({
    schema,
    document,
    variables,
    catalog: context.catalog,
    maxPageSize: context.maxPageSize,
    ...(operationName ? { operationName } : {}),
  });
  const tooCostly = costError(cost, limits);
  if (tooCostly) return [tooCostly];
  return {
    args: {
      schema,
      document,
      contextValue: context,
      variableValues: variables,
      ...(operationName ? { operationName } : {}),
    },
    cost,
    random: checked.random,
  };
}
