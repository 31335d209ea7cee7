import { integer } from './parsers.ts';

/** The variables of GraphQL's limits (see docs/api.md), in the order docs/configuration.md lists them. */
export const GRAPHQL_VARIABLES = {
  GRAPHQL_MAX_DEPTH: {
    default: '10',
    description: 'Deepest nesting of fields a GraphQL query may have (fragments flattened)',
    parse: integer(1, 100),
  },
  GRAPHQL_MAX_ALIASES: {
    default: '20',
    description: 'Aliased fields one GraphQL operation may have',
    parse: integer(0, 1000),
  },
  GRAPHQL_MAX_FIELDS: {
    default: '1000',
    description:
      'Most field selections a GraphQL query may have, fragments expanded where spread; a field name repeated in ' +
      'one selection counts once more for each earlier occurrence',
    parse: integer(10, 100_000),
  },
  GRAPHQL_MAX_COST: {
    default: '20000',
    description:
      'Estimated objects one GraphQL query may ask for (page sizes and link lists multiplied through the nesting)',
    parse: integer(1, 10_000_000),
  },
  GRAPHQL_MAX_DOCUMENT_BYTES: {
    default: '16384',
    description: 'Largest GraphQL query text, in bytes; a POST body may be twice as large (variables)',
    parse: integer(256, 1_048_576),
  },
  GRAPHQL_MAX_TOKENS: {
    default: '2000',
    description: 'Most tokens (names, punctuation, values) a GraphQL query text may have',
    parse: integer(100, 100_000),
  },
  GRAPHQL_COSTLY_QUEUE: {
    default: '8',
    description:
      'Costly GraphQL operations (estimated cost 1000 or more, or a new query text of 2048 characters or more; ' +
      'run or checked one at a time) that may wait for their turn; the next is refused with 503 and Retry-After',
    parse: integer(0, 10_000),
  },
};
