import { GraphQLError } from 'graphql';
import type { GraphQLLimits } from './limits.ts';

/**
 * The variables' nesting and size, checked without recursion before graphql-js coerces them
 * (which recurses, and would overflow the stack on a value nested thousands deep): values may
 * nest as deep as fields (`maxDepth`) and hold as many values (objects, lists and leaves) as
 * the document may hold tokens (`maxTokens`), a value given by variable counting as one
 * written inline would.
 *
 * @example
 * variablesError({ filter: [[[[[[[[[[[1]]]]]]]]]]] }, limits);
 * // GraphQLError: Variables depth limit of 10 exceeded, found more.
 */
export function variablesError(
  variables: Record<string, unknown> | undefined,
  limits: GraphQLLimits,
): GraphQLError | undefined {
  const pending: [unknown, number][] = Object.values(variables ?? {}).map((value) => [value, 1]);
  let values = 0;
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, depth] = next;
    if (depth > limits.maxDepth)
      return new GraphQLError(`Variables depth limit of ${limits.maxDepth} exceeded, found more.`);
    if (++values > limits.maxTokens)
      return new GraphQLError(`Variables size limit of ${limits.maxTokens} values exceeded, found more.`);
    if (value !== null && typeof value === 'object')
      for (const inner of Object.values(value)) pending.push([inner, depth + 1]);
  }
  return undefined;
}
