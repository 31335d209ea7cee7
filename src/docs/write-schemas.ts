import { FAMILIES, type Family } from '../catalog/families.ts';
import { SERVER_FIELDS } from '../catalog/edit/body.ts';
import type { JsonSchema } from '../catalog/schemas/common.ts';
import { componentName, type Json } from './schemas.ts';

/** `schema`, or null (a merge patch removing the field). */
const nullable = (schema: JsonSchema): Json => ({ anyOf: [schema, { type: 'null' }] });

/** A new record's body: the record as served, without the server's fields. */
function createSchema(family: Family, served: Json): Json {
  const properties = { ...(served.properties as Record<string, JsonSchema>) };
  for (const field of [...SERVER_FIELDS, 'languages']) delete properties[field];
  const required = ((served.required ?? []) as string[]).filter((field) => field in properties && field !== 'language');
  return {
    type: 'object',
    properties,
    required,
    additionalProperties: false,
    description:
      `A new ${family.singular}, shaped as a GET answers ` +
      `one${family.translation ? ' (translated fields in `language`, the default language when absent)' : ''}; the ` +
      `server sets uuid, href, created_at and updated_at`,
  };
}

/**
 * A merge patch of a record: any of its fields, `null` removing an optional one; the server's fields only as they are.
 */
function patchSchema(family: Family, served: Json): Json {
  const properties = Object.fromEntries(
    Object.entries(served.properties as Record<string, JsonSchema>).map(([name, schema]) => [name, nullable(schema)]),
  );
  return {
    type: 'object',
    properties,
    minProperties: 1,
    additionalProperties: false,
    description:
      `A JSON Merge Patch (RFC 7396) of the ${family.singular} as a GET answers it: a present field replaces, ` +
      `\`null\` removes an optional one, lists are replaced whole. uuid, href, created_at, ` +
      `updated_at${family.translation ? ' and languages' : ''} may be sent back unchanged, never changed.`,
  };
}

/** The write component schemas: a create and a patch body per family. */
export function writeSchemas(schemas: Record<string, Json>): Record<string, Json> {
  const added: Record<string, Json> = {};
  for (const family of FAMILIES.values()) {
    const name = componentName(family);
    const served = schemas[name]!;
    if (family.name !== 'overview') added[`${name}Create`] = createSchema(family, served);
    added[`${name}Patch`] = patchSchema(family, served);
  }
  added.SocialPatch = {
    type: 'object',
    properties: Object.fromEntries(
      Object.entries((schemas.Social!.properties ?? {}) as Record<string, JsonSchema>).map(([n, s]) => [
        n,
        nullable(s),
      ]),
    ),
    minProperties: 1,
    additionalProperties: false,
  };
  return added;
}
