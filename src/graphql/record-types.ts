import {
  GraphQLFloat,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfig,
  type GraphQLOutputType,
} from 'graphql';
import { FAMILIES, FAMILY_NAMES, type Family, type FamilyName } from '../catalog/families.ts';
import type { JsonSchema } from '../catalog/schemas/common.ts';
import { capitalize } from '../lib/text.ts';
import type { Pacer } from './pacer.ts';
import { GraphQLSafeInt } from './safe-int.ts';
import type { ServedRecord } from './served.ts';

type Field = GraphQLFieldConfig<ServedRecord, unknown>;

const INT32_MAX = 2 ** 31 - 1;

/** "actors" → "Actor": the type of one record of a family. */
export function typeName(family: Family): string {
  return capitalize(family.singular);
}

/** Whether the schema keeps an integer within GraphQL's 32-bit Int. */
function fitsInt(schema: JsonSchema): boolean {
  if (schema.enum) return schema.enum.every((v) => Math.abs(Number(v)) <= INT32_MAX);
  return schema.maximum !== undefined && schema.maximum <= INT32_MAX && (schema.minimum ?? -Infinity) >= -INT32_MAX - 1;
}

/**
 * Integers are Int where their schema bounds them to 32 bits, else SafeInt (a season's budget, a duration in
 * milliseconds).
 */
export function scalarOf(schema: JsonSchema): GraphQLOutputType | undefined {
  switch (schema.type) {
    case 'string':
      return GraphQLString;
    case 'number':
      return GraphQLFloat;
    case 'integer':
      return fitsInt(schema) ? GraphQLInt : GraphQLSafeInt;
    default:
      return undefined;
  }
}

export function describe(schema: JsonSchema): { description?: string } {
  return schema.description ? { description: schema.description } : {};
}

/** A closed object inside a record (an actor's social): its own type, fields read as they are. */
function nestedObject(name: string, schema: JsonSchema): GraphQLObjectType {
  const required = new Set(schema.required ?? []);
  return new GraphQLObjectType({
    name,
    fields: Object.fromEntries(
      Object.entries(schema.properties ?? {}).map(([field, inner]) => {
        const type = scalarOf(inner) ?? GraphQLString;
        return [field, { type: required.has(field) ? new GraphQLNonNull(type) : type, ...describe(inner) }];
      }),
    ),
  });
}

/**
 * The field of a record type for one JSON Schema property: scalars and lists of scalars read
 * off the served JSON; hrefs (`x-family`) resolved to the linked records in the same language,
 * their `href` still one field away; closed objects as types of their own.
 */
function fieldOf(
  owner: string,
  name: string,
  schema: JsonSchema,
  required: boolean,
  types: RecordTypes,
): Field | undefined {
  const list = schema.type === 'array';
  const item = list ? schema.items! : schema;
  const linked = item['x-family'] as FamilyName | undefined;
  let type: GraphQLOutputType | undefined;
  let resolve: Field['resolve'];
  if (linked) {
    // A list holds only the records that exist, so its items are never null; a single link is null when absent.
    type = list ? new GraphQLNonNull(types.get(linked)) : types.get(linked);
    // Links are where a costly query spends its time: each may pause it (Pacer).
    resolve = list
      ? (parent, _, context) =>
          (context as { pacer: Pacer }).pacer.pace(
            (parent.json[name] as string[] | undefined)?.flatMap((href) => parent.follow(href) ?? []),
          )
      : (parent, _, context) => {
          const href = parent.json[name] as string | undefined;
          return href === undefined ? undefined : (context as { pacer: Pacer }).pacer.pace(parent.follow(href));
        };
  } else {
    type =
      item.type === 'object' ? nestedObject(`${owner}${capitalize(name.replace(/s$/, ''))}`, item) : scalarOf(item);
    if (!type) return undefined;
    if (list) type = new GraphQLNonNull(type);
    resolve = (parent) => parent.json[name];
  }
  if (list) type = new GraphQLList(type);
  const description = linked
    ? `${list ? 'The records' : 'The record'} of ${linked} this one links to, in the same language`
    : schema.description;
  return { type: required ? new GraphQLNonNull(type) : type, resolve, ...(description ? { description } : {}) };
}

/** Every field a family's records are served with: own, translated, and `language`/`languages`. */
function fieldsOf(family: Family, types: RecordTypes): Record<string, Field> {
  const owner = typeName(family);
  const fields: Record<string, Field> = {};
  const add = (schema: JsonSchema, required: ReadonlySet<string>, skip: ReadonlySet<string>) => {
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      if (skip.has(name)) continue;
      const field = fieldOf(owner, name, property, required.has(name), types);
      if (field) fields[name] = field;
    }
  };
  add(family.schema, new Set(family.schema.required), new Set());
  const translation = family.translation;
  if (translation) {
    // A record without a translation in the asked language is served the default one's fields.
    add(translation.schema, new Set(translation.schema.required), new Set([translation.parentKey, 'language']));
    fields.language = {
      type: new GraphQLNonNull(GraphQLString),
      description: 'The language the translated fields are in',
      resolve: (parent) => parent.json.language,
    };
    fields.languages ??= {
      type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(GraphQLString))),
      description: 'Every language the record is translated into',
      resolve: (parent) => parent.json.languages,
    };
  }
  return fields;
}

/**
 * One object type per family, generated from the family's JSON Schemas: a field added to a
 * schema appears here with no other edit. `extend` adds fields the schema does not hold
 * (translations, counts), given the type's name.
 *
 * @example
 * const types = new RecordTypes((family) => ({}));
 * types.get('episodes'); // type Episode { uuid: String!, href: String!, title: String, season: Season, … }
 */
export class RecordTypes {
  private readonly types = new Map<FamilyName, GraphQLObjectType>();

  constructor(extend: (family: Family) => Record<string, Field>) {
    for (const name of FAMILY_NAMES) {
      const family = FAMILIES.get(name)!;
      this.types.set(
        name,
        new GraphQLObjectType({
          name: typeName(family),
          fields: () => ({ ...fieldsOf(family, this), ...extend(family) }),
        }),
      );
    }
  }

  get(name: FamilyName): GraphQLObjectType {
    return this.types.get(name)!;
  }
}
