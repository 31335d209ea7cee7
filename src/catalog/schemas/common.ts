import { UUID_PATTERN } from '../../lib/formats.ts';
import { withArticle } from '../../lib/text.ts';

/**
 * Building blocks shared by the record and translation schemas.
 *
 * The schemas are plain JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) so the same
 * objects drive validation (ajv), filter typing and the OpenAPI document.
 * `x-family` marks a string field as a root-relative href to a record of that family, and
 * `x-inverse` names the field of that record that links back (the two sides must agree).
 */
export interface JsonSchema {
  type?: 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';
  description?: string;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  enum?: readonly (string | number)[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  additionalProperties?: boolean;
  examples?: readonly unknown[];
  'x-family'?: string;
  'x-inverse'?: string;
}

export const uuid: JsonSchema = { type: 'string', pattern: UUID_PATTERN, description: 'Lowercase UUID' };

/**
 * A relation: `/api/v1/<family>/<uuid>` of an existing record of `family`; `inverse` names
 * the field of that record that must link back.
 */
export function href(family: string, inverse?: string): JsonSchema {
  return {
    type: 'string',
    'x-family': family,
    ...(inverse ? { 'x-inverse': inverse } : {}),
    description: `Href of ${withArticle(family)} record`,
  };
}

export const text: JsonSchema = { type: 'string', minLength: 1 };
export const url: JsonSchema = { type: 'string', format: 'uri' };
export const date: JsonSchema = { type: 'string', format: 'date', description: 'YYYY-MM-DD' };
/**
 * A picture: in the data, an absolute URL (HawAPI's layout, served as it is) or the path of a
 * picture this server serves (`/images/…`), which answers make absolute.
 */
export const picture: JsonSchema = {
  type: 'string',
  format: 'picture-url',
  description:
    "URL of a picture. The data may give a path under /images/ (a file under the data directory's images/, or a " +
    "picture the server draws for a record of the catalog, its own or another's); answers carry it as an " +
    'absolute URL of this server, which serves the picture.',
};
export const localDateTime: JsonSchema = {
  type: 'string',
  format: 'local-date-time',
  description: 'ISO local date-time without zone, e.g. 2024-03-01T10:15:30.120',
};
export const milliseconds: JsonSchema = { type: 'integer', minimum: 0, description: 'Duration in milliseconds' };
export const count: JsonSchema = { type: 'integer', minimum: 0 };
/** A number in a sequence (an episode's, a season's), from 1; bounded to 32 bits so clients read it as an Int. */
export const ordinal: JsonSchema = { type: 'integer', minimum: 1, maximum: 2 ** 31 - 1 };
/** ISO/IEC 5218: 0 not known, 1 male, 2 female, 9 not applicable. */
export const gender: JsonSchema = { type: 'integer', enum: [0, 1, 2, 9], description: 'ISO/IEC 5218 sex code' };
export const language: JsonSchema = { type: 'string', format: 'language-tag', description: 'BCP 47 tag, e.g. pt-BR' };

export function listOf(items: JsonSchema): JsonSchema {
  return { type: 'array', items };
}

/** A closed object: every property listed, `required` ones mandatory, nothing else allowed. */
export function object(properties: Record<string, JsonSchema>, required: readonly string[]): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false };
}

/**
 * Fields every record carries, around its own: `uuid` and `href` first, then (`after`) the
 * media, sources and timestamps; `media.images` adds the image list where the family has one.
 * The order is the canonical key order of the data files.
 */
export function recordFields(
  family: string,
  own: Record<string, JsonSchema>,
  media: { images: boolean },
): Record<string, JsonSchema> {
  return {
    uuid,
    href: { type: 'string', description: `/api/v1/${family}/<uuid>` },
    ...own,
    thumbnail: picture,
    ...(media.images ? { images: listOf(picture) } : {}),
    sources: listOf(url),
    created_at: localDateTime,
    updated_at: localDateTime,
  };
}

/** Fields every record must have; `created_at` and `updated_at` may be left out (HawAPI's own data does). */
export const RECORD_REQUIRED = ['uuid', 'href'] as const;
