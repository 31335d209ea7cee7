import type { FieldInfo } from './families.ts';
import type { Scalar } from './field-index.ts';
import type { Condition } from './filter.ts';

// The one table of filter operators. The query string's syntax (`parseFilter`), GraphQL's
// filter input types, the OpenAPI document and the docs are all made from it: a new operator
// is a row here (and, if it has a new spelling, a case of `parseFilter`).

/** One operator: how each face writes it, what it means, on which fields, and the condition it makes. */
export interface FilterOperator {
  /** How the query string writes it; undefined for an operator only GraphQL spells. */
  syntax?: string;
  meaning: string;
  /** Meaning on a list field, where it differs. */
  onList?: string;
  applies(field: FieldInfo): boolean;
  /** Its name in GraphQL's filter input, on a single-valued field and on a list field; none: not there. */
  graphql?: { one?: string; list?: string };
  /** Takes its value as text, as written (not typed by the field: a relation's uuid stays a uuid). */
  literal?: boolean;
  /** How many values it takes: one (the default), a list, or exactly two. */
  takes?: 'many' | 'two';
  /** The condition on `field` for its typed value(s). */
  condition(field: FieldInfo, values: readonly Scalar[]): Condition;
}

/** An operator the query string writes. */
export type QueryStringOperator = FilterOperator & { syntax: string };

/** Numbers and dates (not lists) compare and take ranges. */
export const ordered = (field: FieldInfo): boolean => field.kind !== 'string' && !field.list;
/** Text fields, lists of text included, take the substring operators. */
export const textual = (field: FieldInfo): boolean => field.kind === 'string';
const always = () => true;
const lists = (field: FieldInfo) => field.list;

const equal =
  (op: 'eq' | 'ne') =>
  (field: FieldInfo, [value]: readonly Scalar[]): Condition => ({ field: field.name, op, value: value! });
const text =
  (op: 'contains' | 'not-contains') =>
  (field: FieldInfo, [value]: readonly Scalar[]): Condition => ({ field: field.name, op, value: String(value) });
const several =
  (op: 'any' | 'all' | 'none') =>
  (field: FieldInfo, values: readonly Scalar[]): Condition => ({ field: field.name, op, values });
const above =
  (minInclusive: boolean) =>
  (field: FieldInfo, [min]: readonly Scalar[]): Condition => ({
    field: field.name,
    op: 'range',
    range: { min: min!, minInclusive },
  });
const below =
  (maxInclusive: boolean) =>
  (field: FieldInfo, [max]: readonly Scalar[]): Condition => ({
    field: field.name,
    op: 'range',
    range: { max: max!, maxInclusive },
  });

/** Every operator, in the order the docs list them. */
export const OPERATORS: readonly FilterOperator[] = [
  {
    syntax: 'v',
    meaning: 'equals',
    onList: 'contains v',
    applies: always,
    graphql: { one: 'eq', list: 'has' },
    condition: equal('eq'),
  },
  {
    syntax: '=v',
    meaning: 'equals, taking v literally',
    onList: 'contains v, taken literally',
    applies: always,
    condition: equal('eq'),
  },
  {
    syntax: '!v',
    meaning: 'not equal',
    onList: 'does not contain v',
    applies: always,
    graphql: { one: 'ne', list: 'hasNot' },
    condition: equal('ne'),
  },
  {
    syntax: '*v',
    meaning: 'contains the text, ignoring case',
    onList: 'an element contains the text',
    applies: textual,
    graphql: { one: 'contains', list: 'contains' },
    literal: true,
    condition: text('contains'),
  },
  {
    syntax: '!*v',
    meaning: 'does not contain the text',
    onList: 'no element contains the text',
    applies: textual,
    graphql: { one: 'notContains', list: 'notContains' },
    literal: true,
    condition: text('not-contains'),
  },
  {
    syntax: ':a,b',
    meaning: 'one of',
    onList: 'contains all of them',
    applies: always,
    graphql: { one: 'in' },
    takes: 'many',
    condition: (field, values) => several(field.list ? 'all' : 'any')(field, values),
  },
  {
    syntax: '!:a,b',
    meaning: 'none of',
    onList: 'contains none of them',
    applies: always,
    graphql: { one: 'notIn', list: 'hasNone' },
    takes: 'many',
    condition: several('none'),
  },
  {
    syntax: 'a,b',
    meaning: 'contains all of them',
    applies: lists,
    graphql: { list: 'hasAll' },
    takes: 'many',
    condition: several('all'),
  },
  {
    meaning: 'contains one of them',
    applies: lists,
    graphql: { list: 'hasAny' },
    takes: 'many',
    condition: several('any'),
  },
  { syntax: '>v', meaning: 'greater than', applies: ordered, graphql: { one: 'gt' }, condition: above(false) },
  {
    syntax: '>=v',
    meaning: 'greater than or equal',
    applies: ordered,
    graphql: { one: 'gte' },
    condition: above(true),
  },
  { syntax: '<v', meaning: 'less than', applies: ordered, graphql: { one: 'lt' }, condition: below(false) },
  { syntax: '<=v', meaning: 'less than or equal', applies: ordered, graphql: { one: 'lte' }, condition: below(true) },
  {
    syntax: 'a::b',
    meaning: 'between, inclusive',
    applies: ordered,
    graphql: { one: 'between' },
    takes: 'two',
    condition: (field, [min, max]) => ({ field: field.name, op: 'range', range: { min: min!, max: max! } }),
  },
];

/**
 * Every operator `parseFilter` reads and the fields it applies to, as the OpenAPI document
 * describes them (a test holds the two together).
 */
export const FILTER_OPERATORS: readonly QueryStringOperator[] = OPERATORS.filter(
  (o): o is QueryStringOperator => o.syntax !== undefined,
);

/** The operator the query string writes as `syntax`. */
export function written(syntax: string): QueryStringOperator {
  return FILTER_OPERATORS.find((o) => o.syntax === syntax)!;
}

/** The GraphQL operators of `field`, by their GraphQL name. */
export function graphqlOperators(field: FieldInfo): Map<string, FilterOperator> {
  const found = new Map<string, FilterOperator>();
  for (const operator of OPERATORS) {
    const name = field.list ? operator.graphql?.list : operator.graphql?.one;
    if (name && operator.applies(field)) found.set(name, operator);
  }
  return found;
}
