import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import {
  GraphQLError,
  getNamedType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isLeafType,
  isObjectType,
  isListType,
  isNonNullType,
  parse,
  type DocumentNode,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { getComplexity, type ComplexityEstimator } from 'graphql-query-complexity';
import type { Catalog } from '../catalog/catalog.ts';
import { FAMILIES, type FamilyName } from '../catalog/families.ts';
import { utf8Length } from '../lib/utf8.ts';
import { typeName } from './record-types.ts';

/** What one GraphQL request may ask for; each is refused before execution, naming the limit. */
export interface GraphQLLimits {
  /** Bytes of the query text. */
  maxDocumentBytes: number;
  /** Tokens of the query text (names, punctuation, values). */
  maxTokens: number;
  /** Nesting of fields, fragments flattened (introspection's own nesting excepted, as costed below). */
  maxDepth: number;
  /** Aliased fields in one operation. */
  maxAliases: number;
  /**
   * Field selections, fragments expanded and repeated names weighed as validation pays for them (`selectionWeight`).
   */
  maxFields: number;
  /** Estimated records and objects served: each object 1, lists multiplied by how many they may hold. */
  maxCost: number;
}

/**
 * Parses a query within the size and token limits: a document over either is refused
 * before the parser builds anything large.
 *
 * @example
 * parseWithin('{ overview { title } }', limits); // DocumentNode
 */
export function parseWithin(query: string, limits: GraphQLLimits): DocumentNode {
  const bytes = utf8Length(query);
  if (bytes > limits.maxDocumentBytes)
    throw new GraphQLError(`Document size limit of ${limits.maxDocumentBytes} bytes exceeded, found ${bytes}.`);
  try {
    return parse(query, { maxTokens: limits.maxTokens, noLocation: false });
  } catch (error) {
    const tokens = /Document contains more that (\d+) tokens/.exec((error as Error).message);
    if (tokens) throw new GraphQLError(`Token limit of ${limits.maxTokens} exceeded, found more.`);
    throw error;
  }
}

/**
 * A refusal of graphql-armor's reported as a validation error rather than thrown (thrown, it
 * would end validation as a server error); its "Syntax Error:" prefix is dropped, the query's
 * syntax being fine.
 */
const report = {
  propagateOnRejection: false,
  onReject: [
    (context: ValidationContext | null, error: GraphQLError) =>
      context?.reportError(new GraphQLError(error.message.replace(/^Syntax Error: /, ''))),
  ],
};

/** The validation rules of the limits that do not depend on variables: depth and aliases. */
export function limitRules(limits: GraphQLLimits): ValidationRule[] {
  return [
    maxDepthRule({
      n: limits.maxDepth,
      flattenFragments: true,
      ignoreIntrospection: true,
      exposeLimits: true,
      ...report,
    }) as unknown as ValidationRule,
    maxAliasesRule({ n: limits.maxAliases, exposeLimits: true, ...report }) as unknown as ValidationRule,
  ];
}

/** Family by record type name ("Episode" → episodes). */
const FAMILY_OF_TYPE = new Map([...FAMILIES.values()].map((family) => [typeName(family), family.name]));

/** Per catalog, the longest list each link field holds across its family: what one such list may cost. */
const longestLists = new WeakMap<Catalog, Map<string, number>>();

function longestList(catalog: Catalog, family: FamilyName, field: string): number {
  let memo = longestLists.get(catalog);
  if (!memo) longestLists.set(catalog, (memo = new Map()));
  const key = `${family}.${field}`;
  let longest = memo.get(key);
  if (longest === undefined) {
    longest = 0;
    for (const record of catalog.store(family).records)
      longest = Math.max(longest, (record[field] as unknown[] | undefined)?.length ?? 0);
    memo.set(key, longest);
  }
  return longest;
}

/** How many items a list field of `owner` may hold. Introspection lists count the schema's types, its largest list. */
function itemsOf(catalog: Catalog, schema: GraphQLSchema, owner: string, field: string): number {
  if (field === 'translations') return catalog.languages.length;
  const family = FAMILY_OF_TYPE.get(owner);
  if (family) return longestList(catalog, family, field);
  if (owner.startsWith('__')) return introspectionItems(schema).get(`${owner}.${field}`) ?? 1;
  // A page's items are counted by the list field that asked for the page.
  return 1;
}

const introspectionSizes = new WeakMap<GraphQLSchema, Map<string, number>>();

/**
 * Introspection lists are costed at their average length in this schema (fields per type,
 * arguments per field…), so a full introspection costs about what it returns. Averages are
 * safe here because graphql-js refuses introspection nested deeper than its few levels.
 */
function introspectionItems(schema: GraphQLSchema): Map<string, number> {
  let sizes = introspectionSizes.get(schema);
  if (sizes) return sizes;
  const types = Object.values(schema.getTypeMap());
  const fields = types.flatMap((type) =>
    isObjectType(type) || isInterfaceType(type) ? Object.values(type.getFields()) : [],
  );
  const sum = (count: (type: GraphQLNamedType) => number) => types.reduce((total, type) => total + count(type), 0);
  const average = (total: number, over: number) => Math.max(1, Math.ceil(total / Math.max(over, 1)));
  const directives = schema.getDirectives();
  sizes = new Map([
    ['__Schema.types', types.length],
    ['__Schema.directives', directives.length],
    ['__Type.fields', average(fields.length, types.length)],
    [
      '__Type.inputFields',
      average(
        sum((type) => (isInputObjectType(type) ? Object.keys(type.getFields()).length : 0)),
        types.length,
      ),
    ],
    [
      '__Type.enumValues',
      average(
        sum((type) => (isEnumType(type) ? type.getValues().length : 0)),
        types.length,
      ),
    ],
    [
      '__Type.interfaces',
      average(
        sum((type) => (isObjectType(type) || isInterfaceType(type) ? type.getInterfaces().length : 0)),
        types.length,
      ),
    ],
    [
      '__Type.possibleTypes',
      average(
        sum((type) => (isAbstractType(type) ? schema.getPossibleTypes(type).length : 0)),
        types.length,
      ),
    ],
    [
      '__Field.args',
      average(
        fields.reduce((total, field) => total + field.args.length, 0),
        fields.length,
      ),
    ],
    [
      '__Directive.args',
      average(
        directives.reduce((total, directive) => total + directive.args.length, 0),
        directives.length,
      ),
    ],
  ]);
  introspectionSizes.set(schema, sizes);
  return sizes;
}

function isList(type: GraphQLOutputType): boolean {
  return isListType(isNonNullType(type) ? type.ofType : type);
}

/**
 * The estimated cost of an operation: every object served counts 1 (a page, a record, a
 * translation, an introspection type), leaves nothing, and a list counts its items times
 * what each costs, nesting multiplying. A page holds `size` records (at most the largest
 * page), a link list as many as the longest such list in the catalog.
 *
 * @example
 * costOf({ schema, document, catalog, maxPageSize: 50 });
 * // `{ episodes(size: 50) { items { season { title } } } }` → 1 + 50 × (1 + 1 + 1)
 */
export function costOf(options: {
  schema: GraphQLSchema;
  document: DocumentNode;
  variables?: Record<string, unknown>;
  operationName?: string;
  catalog: Catalog;
  maxPageSize: number;
}): number {
  const { schema, document, variables, operationName, catalog, maxPageSize } = options;
  const estimator: ComplexityEstimator = ({ type, field, args, childComplexity }) => {
    if (isLeafType(getNamedType(field.type))) return 0;
    // A list of the catalog: a page of `size` records, each costing what its fields do.
    if (type.name === 'Query' && field.args.some((arg) => arg.name === 'size')) {
      return 1 + Math.min(Math.max(Number(args.size), 1), maxPageSize) * childComplexity;
    }
    const own = 1 + childComplexity;
    return isList(field.type) ? itemsOf(catalog, schema, type.name, field.name) * own : own;
  };
  return getComplexity({
    schema,
    query: document,
    estimators: [estimator],
    ...(variables ? { variables } : {}),
    ...(operationName ? { operationName } : {}),
  });
}

/** The cost check: an error naming the limit and the query's cost, or none. */
export function costError(cost: number, limits: GraphQLLimits): GraphQLError | undefined {
  return cost > limits.maxCost
    ? new GraphQLError(`Cost limit of ${limits.maxCost} exceeded, found ${cost}.`)
    : undefined;
}
