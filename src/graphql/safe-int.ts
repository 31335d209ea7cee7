import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';

function safeInteger(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value))
    throw new GraphQLError(
      `SafeInt cannot represent ${JSON.stringify(value) ?? String(value)}: it takes integers from -(2^53 - 1) to ` +
        `2^53 - 1`,
    );
  return value;
}

/**
 * The integers GraphQL's 32-bit Int cannot hold but JSON numbers carry exactly (up to 2^53 - 1):
 * where a JSON Schema lets an integer grow past 32 bits (a duration in milliseconds, a budget).
 */
export const GraphQLSafeInt = new GraphQLScalarType<number, number>({
  name: 'SafeInt',
  description:
    'An integer from -(2^53 - 1) to 2^53 - 1, sent as a JSON number: JavaScript’s safe integers, for values that ' +
    'may not fit a 32-bit Int (durations in milliseconds, budgets)',
  serialize: safeInteger,
  parseValue: safeInteger,
  parseLiteral: (node) => {
    if (node.kind !== Kind.INT) throw new GraphQLError(`SafeInt takes an integer, got ${node.kind}`, { nodes: node });
    return safeInteger(Number(node.value));
  },
});
