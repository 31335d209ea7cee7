// The served GraphQL schema as a crawl needs it, read by introspection (never hard-coded): the
// list root fields with their record types, the singular root fields, and for any record type
// the selection of every field it has.
import { json, type TestServer } from './http.ts';

/** A type reference as introspection gives it: wrappers (NON_NULL, LIST) around a named type. */
interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}

/** A field of an object type as introspection gives it. */
interface IntrospectedField {
  name: string;
  args: { name: string; type: TypeRef }[];
  type: TypeRef;
}

/** A named type as introspection gives it; `fields` only for object types. */
interface IntrospectedType {
  name: string;
  kind: string;
  fields: IntrospectedField[] | null;
}

/** Of a field of a record type, what the crawl selects and compares. */
export type FieldKind = 'leaf' | 'link' | 'object';

/** A field of a record type: its name, kind, whether it holds a list, and its named type. */
export interface ShapeField {
  name: string;
  kind: FieldKind;
  list: boolean;
  type: string;
}

/** A root field answering one record (`episode(uuid)`, `random_episode`, `overview`), with the family it serves. */
export interface SingleRoot {
  name: string;
  type: string;
  family: string;
  /** Whether it takes the record's `uuid`. */
  byUuid: boolean;
}

/** A root field answering a page of records (`episodes(page, size, …) { items … }`): its name is the family's. */
export interface ListRoot {
  family: string;
  type: string;
}

const INTROSPECTION = `{ __schema { queryType { name } types { name kind fields { name args { name type { ...Ref } } type { ...Ref } } } } }
fragment Ref on __Type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }`;

/** A GraphQL answer: its status and body. */
export interface GraphQLAnswer<T> {
  status: number;
  body: { data?: T; errors?: { message: string; path?: (string | number)[] }[] };
}

/**
 * POSTs one operation to the server's `/api/graphql`.
 *
 * @example
 * const { body } = await postGraphQL(server, '{ overview { title } }');
 */
export async function postGraphQL<T>(
  server: TestServer,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<GraphQLAnswer<T>> {
  const response = await fetch(`${server.url}/api/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: await json(response) };
}

function named(ref: TypeRef): { name: string; kind: string; list: boolean } {
  let list = false;
  let at = ref;
  while (at.ofType) {
    if (at.kind === 'LIST') list = true;
    at = at.ofType;
  }
  return { name: at.name!, kind: at.kind, list };
}

const requiredArguments = (field: IntrospectedField) =>
  field.args.filter((arg) => arg.type.kind === 'NON_NULL').map((arg) => arg.name);

/**
 * The schema a server serves, as a crawl walks it. A record type is an object type with
 * `uuid` and `href`; a field of one is a leaf (scalar, enum, or a list of them), a link (to
 * records) or an object of its own (an actor's socials, translations, the overview's counts).
 *
 * @example
 * const shape = await CatalogShape.of(server);
 * shape.lists; // [{ family: 'actors', type: 'Actor' }, …]
 */
export class CatalogShape {
  readonly lists: ListRoot[] = [];
  readonly singles: SingleRoot[] = [];
  private readonly types: Map<string, IntrospectedType>;

  private constructor(types: IntrospectedType[], queryType: string) {
    this.types = new Map(types.map((type) => [type.name, type]));
    const roots = this.types.get(queryType)!.fields!;
    for (const root of roots) {
      const type = named(root.type);
      const items = this.types.get(type.name)!.fields?.find((f) => f.name === 'items');
      if (items) this.lists.push({ family: root.name, type: named(items.type).name });
    }
    for (const root of roots) {
      const type = named(root.type).name;
      if (!this.isRecord(type)) continue;
      const unknown = requiredArguments(root).filter((arg) => arg !== 'uuid');
      if (unknown.length)
        throw new Error(`the crawl does not know what to give ${root.name}'s required arguments ${unknown.join(', ')}`);
      const family = this.lists.find((list) => list.type === type)?.family ?? root.name;
      this.singles.push({ name: root.name, type, family, byUuid: root.args.some((arg) => arg.name === 'uuid') });
    }
  }

  /** Introspects the server's schema. */
  static async of(server: TestServer): Promise<CatalogShape> {
    const { status, body } = await postGraphQL<{
      __schema: { queryType: { name: string }; types: IntrospectedType[] };
    }>(server, INTROSPECTION);
    if (status !== 200 || body.errors)
      throw new Error(`introspection failed (${status}): ${JSON.stringify(body.errors)}`);
    return new CatalogShape(body.data!.__schema.types, body.data!.__schema.queryType.name);
  }

  /** Whether `type` is a record type: an object type with `uuid` and `href`. */
  isRecord(type: string): boolean {
    const names = this.types.get(type)?.fields?.map((f) => f.name) ?? [];
    return names.includes('uuid') && names.includes('href');
  }

  /** Every field of an object type, classified. */
  fieldsOf(type: string): ShapeField[] {
    return this.types.get(type)!.fields!.map((field) => {
      const of = named(field.type);
      const kind: FieldKind = of.kind !== 'OBJECT' ? 'leaf' : this.isRecord(of.name) ? 'link' : 'object';
      return { name: field.name, kind, list: of.list, type: of.name };
    });
  }

  /**
   * The selection of every field of `type`: leaves as they are, links by their `uuid` only,
   * objects with their own fields. A required argument other than `language` (given
   * `$language`) is refused, as the crawl would not know what to give it.
   */
  selectionOf(type: string): string {
    const fields = this.types.get(type)!.fields!;
    return `{ ${fields.map((field) => this.fieldSelection(type, field)).join(' ')} }`;
  }

  private fieldSelection(owner: string, field: IntrospectedField): string {
    const required = requiredArguments(field);
    const unknown = required.filter((arg) => arg !== 'language');
    if (unknown.length)
      throw new Error(
        `the crawl does not know what to give ${owner}.${field.name}'s required arguments ${unknown.join(', ')}`,
      );
    const call = required.length ? `${field.name}(language: $language)` : field.name;
    const of = named(field.type);
    if (of.kind !== 'OBJECT') return call;
    return this.isRecord(of.name) ? `${call} { uuid }` : `${call} ${this.selectionOf(of.name)}`;
  }
}
