import {
  GraphQLEnumType,
  GraphQLID,
  GraphQLInt,
  GraphQLList,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  printSchema,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
} from 'graphql';
import { FAMILIES, FAMILY_NAMES, sortableFields, type Family } from '../catalog/families.ts';
import { knownLanguage } from '../catalog/language.ts';
import { listPage, readListQuery } from '../catalog/list-request.ts';
import { changesField } from './changes-field.ts';
import { checkedUuid } from '../catalog/href.ts';
import { conditionsOf, filterInput } from './filters.ts';
import { nonNull, servedRecord, type GraphQLContext } from './context.ts';
import { mutationFields } from './mutations.ts';
import { RecordTypes, typeName } from './record-types.ts';
import { ServedRecord } from './served.ts';

type RootField = GraphQLFieldConfig<unknown, GraphQLContext, Record<string, unknown>>;

const ORDER = new GraphQLEnumType({
  name: 'Order',
  values: { asc: { description: 'Ascending' }, desc: { description: 'Descending' } },
});

const LANGUAGE_ARGUMENT: GraphQLFieldConfigArgumentMap = {
  language: {
    type: GraphQLString,
    description: 'A language of the catalog (any case); default: Accept-Language, else the catalog default',
  },
};

function languageOf(args: Record<string, unknown>, context: GraphQLContext): string {
  return typeof args.language === 'string' ? knownLanguage(context.catalog, args.language) : context.preferred;
}

/** A family's translations as a type: the language, then the translated fields. */
function translationType(family: Family): GraphQLObjectType<{ language: string; fields: Record<string, unknown> }> {
  const translation = family.translation!;
  const required = new Set(translation.schema.required);
  const fields: Record<string, GraphQLFieldConfig<{ language: string; fields: Record<string, unknown> }, unknown>> = {
    language: { type: nonNull(GraphQLString), resolve: (row) => row.language },
  };
  for (const name of translation.fields) {
    const schema = translation.schema.properties![name]!;
    const scalar = schema.type === 'array' ? new GraphQLList(nonNull(GraphQLString)) : GraphQLString;
    fields[name] = { type: required.has(name) ? nonNull(scalar) : scalar, resolve: (row) => row.fields[name] };
  }
  return new GraphQLObjectType({ name: `${typeName(family)}Translation`, fields });
}

/** Fields the JSON Schemas do not hold: a translated record's translations, the overview's counts. */
function extraFields(family: Family): Record<string, GraphQLFieldConfig<ServedRecord, unknown>> {
  const extra: Record<string, GraphQLFieldConfig<ServedRecord, unknown>> = {};
  if (family.translation) {
    const type = translationType(family);
    extra.translations = {
      type: nonNull(new GraphQLList(nonNull(type))),
      description: 'Every translation of the record',
      resolve: (record) => record.store.translationsOf(record.position),
    };
    extra.translation = {
      type,
      args: { language: { type: nonNull(GraphQLString) } },
      description: 'The translation in one language (any case), or null when the record has none in it',
      resolve: (record, args: { language: string }) =>
        record.store
          .translationsOf(record.position)
          .find((t) => t.language.toLowerCase() === args.language.toLowerCase()),
    };
  }
  if (family.name === 'overview') {
    const counts = new GraphQLObjectType({
      name: 'DataCount',
      fields: Object.fromEntries(
        FAMILY_NAMES.filter((n) => n !== 'overview').map((n) => [n, { type: nonNull(GraphQLInt) }]),
      ),
    });
    extra.data_count = {
      type: nonNull(counts),
      description: 'Records per family',
      resolve: (record) => record.catalog.counts(),
    };
  }
  return extra;
}

/** The list, by-uuid and random fields of one family, answered by the same query functions as REST. */
function familyFields(family: Family, types: RecordTypes): Record<string, RootField> {
  const type = types.get(family.name);
  const name = typeName(family);
  const page = new GraphQLObjectType({
    name: `${name}Page`,
    fields: {
      items: { type: nonNull(new GraphQLList(nonNull(type))) },
      page: { type: nonNull(GraphQLInt) },
      size: { type: nonNull(GraphQLInt), description: 'The page size served (at most the server’s largest)' },
      total_items: { type: nonNull(GraphQLInt), description: 'Records matching, on every page' },
      total_pages: { type: nonNull(GraphQLInt) },
    },
  });
  const sort = new GraphQLEnumType({
    name: `${name}SortField`,
    values: Object.fromEntries(sortableFields(family).map((f) => [f, {}])),
  });
  const single = family.singular;
  return {
    [family.name]: {
      type: nonNull(page),
      description:
        `A page of ${family.name}, filtered, searched and sorted as GET /api/v1/${family.name} does. ` +
        `For a spreadsheet, that route answers the same page in CSV: GET /api/v1/${family.name}?format=csv ` +
        `(docs/api.md, "CSV")`,
      args: {
        filter: { type: filterInput(family) },
        q: { type: GraphQLString, description: 'Words to search for; every one must match' },
        sort: { type: sort },
        order: { type: ORDER, defaultValue: 'asc' },
        page: { type: GraphQLInt, defaultValue: 1 },
        size: {
          type: GraphQLInt,
          defaultValue: 10,
          description: 'Records per page, at most the server’s largest page',
        },
        ...LANGUAGE_ARGUMENT,
      },
      resolve: (_, args, context) => {
        const store = context.catalog.store(family.name);
        const language = languageOf(args, context);
        const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
        // `order` has a default in the schema: it counts only beside a `sort`, as it always has.
        const sorted = text(args.sort);
        const conditions = conditionsOf(family, args.filter as Parameters<typeof conditionsOf>[1]);
        const params = {
          page: args.page as number,
          size: args.size as number,
          sort: sorted,
          order: sorted && text(args.order),
          q: text(args.q),
          conditions,
        };
        const page = listPage(store, readListQuery(family, params, context.maxPageSize), language);
        const items = Array.from(page.positions, (p) => servedRecord(context, store, p, language));
        return { items, page: page.page, size: page.size, total_items: page.totalItems, total_pages: page.totalPages };
      },
    },
    [single]: {
      type,
      description: `One ${single} by uuid, or null when there is none`,
      args: { uuid: { type: nonNull(GraphQLID) }, ...LANGUAGE_ARGUMENT },
      resolve: (_, args, context) => {
        const store = context.catalog.store(family.name);
        const position = store.position(checkedUuid(String(args.uuid)));
        return position === undefined ? null : servedRecord(context, store, position, languageOf(args, context));
      },
    },
    [`random_${single}`]: {
      type,
      description: `One ${single} picked at random, or null when there are none`,
      args: LANGUAGE_ARGUMENT,
      resolve: (_, args, context) => {
        const store = context.catalog.store(family.name);
        const position = store.randomPosition();
        return position === undefined ? null : servedRecord(context, store, position, languageOf(args, context));
      },
    },
  };
}

/**
 * The catalog as a GraphQL schema, generated from the families' JSON Schemas. Each list
 * takes the REST list's arguments and is answered by `listPositions`; records are served by
 * the same `present` as REST; the mutations make the REST routes' writes (`mutationFields`).
 *
 * @example
 * printSchema(catalogSchema()); // type Query { episodes(filter: EpisodeFilter, …): EpisodePage! … }
 */
export function catalogSchema(): GraphQLSchema {
  const types = new RecordTypes(extraFields);
  const fields: Record<string, RootField> = {
    overview: {
      type: nonNull(types.get('overview')),
      description: 'The overview of the series, with its counts',
      args: LANGUAGE_ARGUMENT,
      resolve: (_, args, context) =>
        servedRecord(context, context.catalog.store('overview'), 0, languageOf(args, context)),
    },
  };
  for (const name of FAMILY_NAMES)
    if (name !== 'overview') Object.assign(fields, familyFields(FAMILIES.get(name)!, types));
  fields.changes = changesField as RootField;
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields }),
    mutation: new GraphQLObjectType({ name: 'Mutation', fields: mutationFields(types) }),
  });
}

/**
 * The schema in SDL, as `/api/graphql/schema.graphql` serves it and `npm run schemas` writes
 * it beside the JSON Schemas, for clients that generate types.
 *
 * @example
 * schemaText(catalogSchema()); // '# Generated …\n\ntype Query {\n  …'
 */
export function schemaText(schema: GraphQLSchema): string {
  return (
    `# The catalog's GraphQL schema, generated from src/catalog/schemas (npm run schemas); do not ` +
    `edit.\n\n${printSchema(schema)}\n`
  );
}
