import {
  GraphQLFloat,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLString,
  type GraphQLInputFieldConfig,
  type GraphQLInputType,
} from 'graphql';
import type { Family, FieldInfo } from '../catalog/families.ts';
import type { Scalar } from '../catalog/field-index.ts';
import type { Condition } from '../catalog/filter.ts';
import { graphqlOperators, type FilterOperator } from '../catalog/filter-operators.ts';
import { typed } from '../catalog/filter-syntax.ts';
import { HttpError } from '../lib/http-error.ts';
import { typeName } from './record-types.ts';

/** The input type of a field's filter, shared by every field of the same kind. */
const inputs = new Map<string, GraphQLInputObjectType>();

function inputOf(field: FieldInfo): GraphQLInputObjectType {
  // Numbers come as Float: GraphQL's Int is 32 bits, and `typed` checks integers as the query string does.
  const scalar = field.kind === 'integer' || field.kind === 'number' ? GraphQLFloat : GraphQLString;
  const name =
    `${{ string: 'Text', integer: 'Number', number: 'Number', date: 'Date', 'date-time': 'DateTime' }[field.kind]}` +
    `${field.list ? 'List' : ''}Filter`;
  let input = inputs.get(name);
  if (!input) {
    const fields: Record<string, GraphQLInputFieldConfig> = {};
    for (const [op, operator] of graphqlOperators(field)) {
      const type: GraphQLInputType = operator.takes ? new GraphQLList(new GraphQLNonNull(scalar)) : scalar;
      const meaning = field.list ? (operator.onList ?? operator.meaning) : operator.meaning;
      fields[op] = {
        type,
        description:
          `${meaning[0]!.toUpperCase()}${meaning.slice(1)}` +
          `${operator.syntax ? ` (\`${operator.syntax}\` in a query string)` : ''}`,
      };
    }
    input = new GraphQLInputObjectType({ name, fields });
    inputs.set(name, input);
  }
  return input;
}

/**
 * The `filter` argument of a family's list: one typed operator object per filterable field,
 * e.g. `{ duration: { gt: 1200000 }, season: { eq: "<uuid>" } }`, made from the catalog's
 * one table of operators.
 */
export function filterInput(family: Family): GraphQLInputObjectType {
  const fields: Record<string, GraphQLInputFieldConfig> = {};
  for (const field of family.fields.values()) fields[field.name] = { type: inputOf(field) };
  return new GraphQLInputObjectType({ name: `${typeName(family)}Filter`, fields });
}

/** An argument's values typed as the query string's are (an href also by its bare uuid). */
function typedValues(field: FieldInfo, operator: FilterOperator, value: unknown): Scalar[] {
  const values = Array.isArray(value) ? value : [value];
  if (operator.takes === 'two' && values.length !== 2)
    throw new HttpError(400, `Filter '${field.name}' between takes exactly two values, got ${values.length}`);
  return values.map((raw) => {
    if (operator.literal) return String(raw);
    const result = typed(field, String(raw));
    if ('error' in result) throw new HttpError(400, result.error);
    return result.value;
  });
}

/**
 * The conditions a `filter` argument asks for: what `listPositions` takes from either face.
 *
 * @example
 * conditionsOf(family('episodes'), { duration: { gt: 1200000, lte: 3000000 } });
 * // [{ field: 'duration', op: 'range', range: { min: 1200000, minInclusive: false } }, { …max… }]
 */
export function conditionsOf(
  family: Family,
  filter: Record<string, Record<string, unknown> | null> | undefined,
): Condition[] {
  const conditions: Condition[] = [];
  for (const [name, operators] of Object.entries(filter ?? {})) {
    const field = family.fields.get(name)!;
    const known = graphqlOperators(field);
    for (const [op, value] of Object.entries(operators ?? {})) {
      if (value === null || value === undefined) continue;
      const operator = known.get(op)!;
      conditions.push(operator.condition(field, typedValues(field, operator, value)));
    }
  }
  return conditions;
}
