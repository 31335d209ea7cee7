import { GraphQLFloat, GraphQLInputObjectType, GraphQLList, GraphQLNonNull, GraphQLString, type GraphQLInputFieldConfig, type GraphQLInputType } from 'graphql';
import type { Family, FieldInfo } from '../catalog/families.ts';
import type { Scalar } from '../catalog/field-index.ts';
import type { Condition } from '../catalog/filter.ts';
import { typed } from '../catalog/filter-syntax.ts';
import { HttpError } from '../lib/http-error.ts';
import { typeName } from './record-types.ts';

/** One operator of a typed filter: the condition it makes from its argument. */
interface Operator {
  description: string;
  /** Takes a list of values rather than one. */
  many?: boolean;
  condition(field: string, value: Scalar | Scalar[]): Condition;
}

const one = (value: Scalar | Scalar[]) => value as Scalar;
const many = (value: Scalar | Scalar[]) => value as Scalar[];

const EQUALITY: Record<string, Operator> = {
  eq: { description: 'Equals', condition: (field, v) => ({ field, op: 'eq', value: one(v) }) },
  ne: { description: 'Does not equal (also records without the field)', condition: (field, v) => ({ field, op: 'ne', value: one(v) }) },
  in: { description: 'One of', many: true, condition: (field, v) => ({ field, op: 'any', values: many(v) }) },
  notIn: { description: 'None of (also records without the field)', many: true, condition: (field, v) => ({ field, op: 'none', values: many(v) }) },
};

const TEXT: Record<string, Operator> = {
  contains: { description: 'Contains the text, ignoring case and accents', condition: (field, v) => ({ field, op: 'contains', value: String(v) }) },
  notContains: { description: 'Does not contain the text', condition: (field, v) => ({ field, op: 'not-contains', value: String(v) }) },
};

const ORDER: Record<string, Operator> = {
  gt: { description: 'Greater than', condition: (field, v) => ({ field, op: 'range', range: { min: one(v), minInclusive: false } }) },
  gte: { description: 'Greater than or equal', condition: (field, v) => ({ field, op: 'range', range: { min: one(v), minInclusive: true } }) },
  lt: { description: 'Less than', condition: (field, v) => ({ field, op: 'range', range: { max: one(v), maxInclusive: false } }) },
  lte: { description: 'Less than or equal', condition: (field, v) => ({ field, op: 'range', range: { max: one(v), maxInclusive: true } }) },
  between: {
    description: 'Between the two values, both included',
    many: true,
    condition: (field, v) => {
      const [min, max, ...rest] = many(v);
      if (min === undefined || max === undefined || rest.length > 0) throw new HttpError(400, `Filter '${field}' between takes exactly two values, got ${many(v).length}`);
      return { field, op: 'range', range: { min, max } };
    },
  },
};

const LIST: Record<string, Operator> = {
  has: { description: 'The list contains the value', condition: (field, v) => ({ field, op: 'eq', value: one(v) }) },
  hasNot: { description: 'The list does not contain the value', condition: (field, v) => ({ field, op: 'ne', value: one(v) }) },
  hasAny: { description: 'The list contains one of the values', many: true, condition: (field, v) => ({ field, op: 'any', values: many(v) }) },
  hasAll: { description: 'The list contains every value', many: true, condition: (field, v) => ({ field, op: 'all', values: many(v) }) },
  hasNone: { description: 'The list contains none of the values', many: true, condition: (field, v) => ({ field, op: 'none', values: many(v) }) },
};

/** The operators a field takes: the same the query-string syntax gives it. */
function operatorsOf(field: FieldInfo): Record<string, Operator> {
  const text = field.kind === 'string' ? TEXT : {};
  if (field.list) return { ...LIST, ...text };
  return field.kind === 'string' ? { ...EQUALITY, ...text } : { ...EQUALITY, ...ORDER };
}

/** The input type of a field's filter, shared by every field of the same kind. */
const inputs = new Map<string, GraphQLInputObjectType>();

function inputOf(field: FieldInfo): GraphQLInputObjectType {
  // Numbers come as Float: GraphQL's Int is 32 bits, and `typed` checks integers as the query string does.
  const scalar = field.kind === 'integer' || field.kind === 'number' ? GraphQLFloat : GraphQLString;
  const name = `${{ string: 'Text', integer: 'Number', number: 'Number', date: 'Date', 'date-time': 'DateTime' }[field.kind]}${field.list ? 'List' : ''}Filter`;
  let input = inputs.get(name);
  if (!input) {
    const fields: Record<string, GraphQLInputFieldConfig> = {};
    for (const [op, { description, many: takesMany }] of Object.entries(operatorsOf(field))) {
      const type: GraphQLInputType = takesMany ? new GraphQLList(new GraphQLNonNull(scalar)) : scalar;
      fields[op] = { type, description };
    }
    input = new GraphQLInputObjectType({ name, fields });
    inputs.set(name, input);
  }
  return input;
}

/**
 * The `filter` argument of a family's list: one typed operator object per filterable field,
 * e.g. `{ duration: { gt: 1200000 }, season: { eq: "<uuid>" } }`.
 */
export function filterInput(family: Family): GraphQLInputObjectType {
  const fields: Record<string, GraphQLInputFieldConfig> = {};
  for (const field of family.fields.values()) fields[field.name] = { type: inputOf(field) };
  return new GraphQLInputObjectType({ name: `${typeName(family)}Filter`, fields });
}

function typedValue(field: FieldInfo, raw: unknown): Scalar {
  const result = typed(field, String(raw));
  if ('error' in result) throw new HttpError(400, result.error);
  return result.value;
}

/**
 * The conditions a `filter` argument asks for, each value typed as the query string's are
 * (an href also by its bare uuid): what `listPositions` takes from either face.
 *
 * @example
 * conditionsOf(family('episodes'), { duration: { gt: 1200000, lte: 3000000 } });
 * // [{ field: 'duration', op: 'range', range: { min: 1200000, minInclusive: false } }, { …max… }]
 */
export function conditionsOf(family: Family, filter: Record<string, Record<string, unknown> | null> | undefined): Condition[] {
  const conditions: Condition[] = [];
  for (const [name, operators] of Object.entries(filter ?? {})) {
    const field = family.fields.get(name)!;
    const known = operatorsOf(field);
    for (const [op, value] of Object.entries(operators ?? {})) {
      if (value === null || value === undefined) continue;
      const typedArgument = Array.isArray(value) ? value.map((v) => typedValue(field, v)) : typedValue(field, value);
      conditions.push(known[op]!.condition(name, typedArgument));
    }
  }
  return conditions;
}
