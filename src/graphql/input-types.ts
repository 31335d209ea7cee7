import {
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLString,
  type GraphQLInputFieldConfig,
  type GraphQLInputType,
} from 'graphql';
import { SERVER_FIELDS } from '../catalog/edit/body.ts';
import type { Family } from '../catalog/families.ts';
import type { JsonSchema } from '../catalog/schemas/common.ts';
import { capitalize } from '../lib/text.ts';
import { describe, scalarOf, typeName } from './record-types.ts';
import { withArticle } from '../lib/text.ts';

const LANGUAGE: GraphQLInputFieldConfig = {
  type: GraphQLString,
  description: 'The language of the translated fields (a language of the catalog); default: the catalog default',
};

/** A whole value (a created record's) or a JSON Merge Patch (every field optional, `null` removing it). */
export type InputKind = 'Input' | 'Patch';

type Fields = Record<string, GraphQLInputFieldConfig>;

/**
 * The input types of the writes, generated from the families' JSON Schemas, each made once
 * per schema: a family's record and translation as `Input` (created: the schema's required
 * fields non-null) or `Patch` (a JSON Merge Patch: every field optional, `null` removing it).
 * Only the schema's properties are fields, so unknown keys cannot be sent.
 *
 * @example
 * const inputs = new InputTypes();
 * inputs.record(family('locations'), 'Patch');
 * // input LocationPatch { thumbnail: String, …, name: String, language: String }
 */
export class InputTypes {
  readonly #made = new Map<string, GraphQLInputObjectType>();

  /** A family's record but the server's fields, with its translated fields and their `language`. */
  record(family: Family, kind: InputKind): GraphQLInputObjectType {
    const owner = typeName(family);
    const server = new Set<string>(SERVER_FIELDS);
    // A translated record's `languages` are the server's; the overview's are its own.
    if (family.translation && family.name !== 'overview') server.add('languages');
    const about =
      kind === 'Input'
        ? `A new ${family.singular}`
        : `A JSON Merge Patch of ${withArticle(family.singular)}: only the fields sent change`;
    return this.#once(`${owner}${kind}`, about, () => {
      const own = this.#fields(owner, family.schema, kind, server);
      const translation = family.translation;
      if (!translation) return own;
      const translated = this.#fields(owner, translation.schema, kind, new Set([translation.parentKey, 'language']));
      return { ...own, ...translated, language: LANGUAGE };
    });
  }

  /** A translation: `Input` names its language, `Patch` changes the one the mutation names. */
  translation(family: Family, kind: InputKind): GraphQLInputObjectType {
    const translation = family.translation!;
    const owner = `${typeName(family)}Translation`;
    const about =
      kind === 'Input' ? `A new translation of ${withArticle(family.singular)}` : 'A JSON Merge Patch of a translation';
    return this.#once(`${owner}${kind}`, about, () => {
      const fields = this.#fields(owner, translation.schema, kind, new Set([translation.parentKey, 'language']));
      return kind === 'Input'
        ? { language: { type: new GraphQLNonNull(GraphQLString), description: 'A language of the catalog' }, ...fields }
        : fields;
    });
  }

  /** A closed object inside a record (an actor's social), named after its owner and property. */
  object(owner: string, schema: JsonSchema, kind: InputKind): GraphQLInputObjectType {
    return this.#once(`${owner}${kind}`, schema.description ?? owner, () =>
      this.#fields(owner, schema, kind, new Set()),
    );
  }

  #once(name: string, description: string, fields: () => Fields): GraphQLInputObjectType {
    let type = this.#made.get(name);
    if (!type) this.#made.set(name, (type = new GraphQLInputObjectType({ name, description, fields })));
    return type;
  }

  /** The fields of `schema` but `skip`. */
  #fields(owner: string, schema: JsonSchema, kind: InputKind, skip: ReadonlySet<string>): Fields {
    const required = new Set(schema.required ?? []);
    const fields: Fields = {};
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      if (skip.has(name)) continue;
      const type = this.#inputOf(owner, name, property);
      if (!type) continue;
      const about = describe(property).description;
      const patched = required.has(name) ? 'required: never null' : 'null removes it';
      const description = kind === 'Patch' ? (about ? `${about} (${patched})` : patched) : about;
      fields[name] = {
        type: kind === 'Input' && required.has(name) ? new GraphQLNonNull(type) : type,
        ...(description ? { description } : {}),
      };
    }
    return fields;
  }

  /** Scalars (hrefs are strings), lists of them (replaced whole, as a merge patch does), closed objects. */
  #inputOf(owner: string, name: string, schema: JsonSchema): GraphQLInputType | undefined {
    if (schema.type === 'array') {
      const item = this.#inputOf(owner, name.replace(/s$/, ''), schema.items ?? { type: 'string' });
      return item && new GraphQLList(new GraphQLNonNull(item));
    }
    if (schema.type === 'object') return this.object(`${owner}${capitalize(name)}`, schema, 'Input');
    return scalarOf(schema) as GraphQLInputType | undefined;
  }
}
