import { FAMILIES, type Family } from '../catalog/families.ts';
import { language, listOf, object, type JsonSchema } from '../catalog/schemas/common.ts';
import { CREDENTIALS_BODY_SCHEMA, REGISTER_BODY_SCHEMA } from '../accounts/schemas.ts';
import { ROLES } from '../lib/roles.ts';
import { capitalize, withArticle } from '../lib/text.ts';

/** An OpenAPI object, loosely typed: the validator test checks the whole document. */
export type Json = Record<string, unknown>;

/** The component name of a family's records. @example componentName(family('episodes')); // 'Episode' */
export function componentName(family: Family): string {
  return capitalize(family.singular);
}

/** A `$ref` to a component schema. @example ref('Actor'); // { $ref: '#/components/schemas/Actor' } */
export function ref(name: string): Json {
  return { $ref: `#/components/schemas/${name}` };
}

const unique = (names: readonly string[]) => [...new Set(names)];

/**
 * A record as the API serves it: the family schema with, for translated families, the
 * translated fields of the served language merged in, plus `language` and `languages`.
 */
function servedRecord(family: Family): JsonSchema {
  const { schema, translation } = family;
  if (!translation) return schema;
  const { [translation.parentKey]: _parent, language: _language, ...translated } = translation.schema.properties ?? {};
  const translatedRequired = (translation.schema.required ?? []).filter(
    (f) => f !== translation.parentKey && f !== 'language',
  );
  // In the order `present` (src/catalog/present.ts) writes them.
  const { uuid, href, ...own } = schema.properties ?? {};
  const properties = {
    uuid: uuid!,
    href: href!,
    ...translated,
    languages: { ...listOf(language), description: 'Languages this record has a translation in' },
    ...own,
    language: { ...language, description: 'Language the translated fields were served in' },
  };
  return object(properties, unique([...(schema.required ?? []), ...translatedRequired, 'language', 'languages']));
}

/**
 * A record shaped by `expand` and `fields`: any relation may hold the related record (or
 * records) instead of its href, and only `uuid` and `href` are sure to be there.
 */
function shapedRecord(family: Family): JsonSchema {
  const served = servedRecord(family);
  const properties: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(served.properties ?? {})) {
    const item = schema.type === 'array' ? schema.items! : schema;
    const related = item['x-family'];
    if (!related) {
      properties[name] = schema;
      continue;
    }
    const either = { anyOf: [item, ref(componentName(FAMILIES.get(related as Family['name'])!))] } as JsonSchema;
    properties[name] =
      schema.type === 'array'
        ? { ...schema, items: either }
        : {
            ...either,
            description: `${schema.description ?? ''}, or with \`expand\` the record itself`.replace(/^, /, ''),
          };
  }
  return {
    ...object(properties, ['uuid', 'href']),
    description: `${capitalize(withArticle(family.singular))} as \`expand\` and \`fields\` shape it`,
  };
}

/** One translation as served: its language and the translated fields, without the parent's uuid. */
function servedTranslation(family: Family): JsonSchema {
  const { parentKey, schema } = family.translation!;
  const { [parentKey]: _parent, ...properties } = schema.properties ?? {};
  return object(
    properties,
    (schema.required ?? []).filter((f) => f !== parentKey),
  );
}

/** The overview adds `data_count`: records per family. */
function overview(family: Family): JsonSchema {
  const served = servedRecord(family);
  const families = [...FAMILIES.keys()].filter((name) => name !== 'overview');
  const counts = object(Object.fromEntries(families.map((name) => [name, { type: 'integer', minimum: 0 }])), families);
  return object({ ...served.properties, data_count: { ...counts, description: 'Records per family' } }, [
    ...(served.required ?? []),
    'data_count',
  ]);
}

/** The one error shape of `errorJson` (src/http/errors.ts). */
const ERROR: Json = {
  type: 'object',
  description: 'Every error answer, whatever its cause',
  properties: {
    code: { type: 'integer', description: 'HTTP status code', examples: [400] },
    status: { type: 'string', description: 'HTTP reason phrase', examples: ['Bad Request'] },
    method: { type: 'string', examples: ['GET'] },
    message: {
      type: 'string',
      description: 'What was wrong, naming the parameter, field or record',
      examples: ["Unknown filter 'frist_name' for actors; filterable: uuid, href, …"],
    },
    url: { type: 'string', description: 'The request path', examples: ['/api/v1/actors'] },
    timestamps: { type: 'string', format: 'date-time', description: 'When the error was answered' },
    params: {
      type: 'object',
      description: 'The query parameters, when there were any',
      additionalProperties: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
    },
    request_id: {
      type: 'string',
      description: 'On a 500 only: the id under which the server logged the failure, to quote when reporting it',
      examples: ['5f0c2a9e1b7d'],
    },
  },
  required: ['code', 'status', 'method', 'message', 'url', 'timestamps'],
  additionalProperties: false,
};

const text = { type: 'string' };
const instant = { type: 'string', format: 'date-time' };

const API_INFO_FIELDS = [
  'title',
  'description',
  'version',
  'url',
  'docs',
  'github',
  'github_home',
  'api_url',
  'api_version',
  'api_path',
  'api_base_url',
  'license',
  'license_url',
  'data_version',
];

/** `GET /api`: what HawAPI clients read as the API's info. */
const API_INFO: Json = {
  type: 'object',
  properties: {
    ...Object.fromEntries(API_INFO_FIELDS.map((f) => [f, text])),
    data_version: { type: 'string', description: 'The data version served (the `Catalog-Version` header; opaque)' },
  },
  required: API_INFO_FIELDS,
  additionalProperties: false,
};

const REGISTERED = {
  username: text,
  email: { type: 'string', format: 'email' },
  role: { type: 'string', enum: ROLES },
  token: { type: 'string', description: 'A JWT to send as `Authorization: Bearer <token>`' },
  token_type: { type: 'string', enum: ['Bearer'] },
  expires_at: instant,
  created_at: instant,
  updated_at: instant,
};

/**
 * Every component schema of the OpenAPI document, built from the catalog's JSON Schemas and
 * the accounts' body schemas, so the document describes exactly what is validated and served.
 *
 * @example
 * componentSchemas().Actor.required; // ['uuid', 'href', 'created_at', 'updated_at', 'first_name']
 */
export function componentSchemas(): Record<string, Json> {
  const schemas: Record<string, Json> = {};
  for (const family of FAMILIES.values()) {
    const name = componentName(family);
    schemas[name] = { ...(family.name === 'overview' ? overview(family) : servedRecord(family)) };
    if (family.name !== 'overview') schemas[`Shaped${name}`] = { ...shapedRecord(family) };
    if (family.translation) schemas[`${name}Translation`] = { ...servedTranslation(family) };
  }
  const socials = FAMILIES.get('actors')!.schema.properties!.socials!;
  schemas.Social = { ...socials.items! };
  schemas.Error = ERROR;
  schemas.ApiInfo = API_INFO;
  schemas.Endpoint = {
    type: 'object',
    properties: { method: { type: 'string', enum: ['GET'] }, path: text },
    required: ['method', 'path'],
    additionalProperties: false,
  };
  schemas.RegisterBody = REGISTER_BODY_SCHEMA;
  schemas.CredentialsBody = CREDENTIALS_BODY_SCHEMA;
  // Registering and signing in answer the same fields.
  schemas.Registered = {
    type: 'object',
    properties: REGISTERED,
    required: Object.keys(REGISTERED),
    additionalProperties: false,
  };
  schemas.Authenticated = schemas.Registered;
  return schemas;
}
