import type { JsonSchema } from './schemas/common.ts';
import { SCHEMAS } from './schemas/records.ts';

export type FamilyName = keyof typeof SCHEMAS;

export const FAMILY_NAMES = Object.keys(SCHEMAS) as FamilyName[];

/** Scalar type of a field as the query language sees it. */
export type FieldKind = 'string' | 'integer' | 'number' | 'date' | 'date-time';

/**
 * What the store and the query language know about one field, read off the JSON Schema.
 * `list` fields hold arrays of scalars; `relation` names the family an href points to.
 */
export interface FieldInfo {
  name: string;
  kind: FieldKind;
  list: boolean;
  translated: boolean;
  /** Words people search for (names, titles, descriptions, tags…): free text, not an id, link or date. */
  text: boolean;
  relation?: FamilyName;
  /** The field of the related record that must link back (two-sided relations). */
  inverse?: string;
}

/**
 * Everything the catalog knows about one family, e.g. `family('episodes').translationFile`
 * is `translations/episodes_translations.json` and `.parentKey` is `episode_uuid`.
 */
export interface Family {
  name: FamilyName;
  singular: string;
  file: string;
  schema: JsonSchema;
  translation?: { file: string; parentKey: string; schema: JsonSchema; fields: string[] };
  /** Filterable fields: scalars and lists of scalars, own and translated. */
  fields: Map<string, FieldInfo>;
}

const SINGULAR: Record<FamilyName, string> = {
  overview: 'overview',
  actors: 'actor',
  characters: 'character',
  episodes: 'episode',
  seasons: 'season',
  locations: 'location',
  soundtracks: 'soundtrack',
  games: 'game',
};

function kindOf(schema: JsonSchema): FieldKind | undefined {
  if (schema.type === 'integer' || schema.type === 'number') return schema.type;
  if (schema.type !== 'string') return undefined;
  if (schema.format === 'date') return 'date';
  if (schema.format === 'local-date-time') return 'date-time';
  return 'string';
}

function fieldInfo(name: string, schema: JsonSchema, translated: boolean): FieldInfo | undefined {
  const list = schema.type === 'array';
  const scalar = list ? schema.items : schema;
  const kind = scalar && kindOf(scalar);
  if (!kind) return undefined;
  const relation = scalar['x-family'] as FamilyName | undefined;
  const inverse = scalar['x-inverse'];
  const text = kind === 'string' && !relation && !scalar.format && name !== 'uuid' && name !== 'href';
  return { name, kind, list, translated, text, ...(relation ? { relation } : {}), ...(inverse ? { inverse } : {}) };
}

function describe(name: FamilyName): Family {
  const { record, translation } = SCHEMAS[name] as { record: JsonSchema; translation?: JsonSchema };
  const singular = SINGULAR[name];
  const fields = new Map<string, FieldInfo>();
  for (const [field, schema] of Object.entries(record.properties ?? {})) {
    const info = fieldInfo(field, schema, false);
    if (info) fields.set(field, info);
  }
  let translationInfo: Family['translation'];
  if (translation) {
    const parentKey = `${singular}_uuid`;
    const translated = Object.keys(translation.properties ?? {}).filter((f) => f !== parentKey && f !== 'language');
    for (const field of translated) {
      const info = fieldInfo(field, translation.properties![field]!, true);
      if (info) fields.set(field, info);
    }
    translationInfo = {
      file: `translations/${name}_translations.json`,
      parentKey,
      schema: translation,
      fields: translated,
    };
  }
  return {
    name,
    singular,
    file: `${name}.json`,
    schema: record,
    fields,
    ...(translationInfo ? { translation: translationInfo } : {}),
  };
}

export const FAMILIES: ReadonlyMap<FamilyName, Family> = new Map(FAMILY_NAMES.map((n) => [n, describe(n)]));

/** The family called `name`; throws on a name that is not one. */
export function family(name: FamilyName): Family {
  return FAMILIES.get(name)!;
}

export function isFamilyName(name: string): name is FamilyName {
  return FAMILIES.has(name as FamilyName);
}

/** Fields a family can be sorted by: every filterable field that is not a list. */
export function sortableFields(family: Family): string[] {
  return [...family.fields.values()].filter((f) => !f.list).map((f) => f.name);
}

/** Relations a family's records can have expanded: its href fields. */
export function relationsOf(family: Family): string[] {
  return [...family.fields.values()].filter((f) => f.relation).map((f) => f.name);
}

/** Fields a family's records are served with (own, translated, and the language pair). */
export function servedFields(family: Family): string[] {
  const own = Object.keys(family.schema.properties ?? {});
  if (!family.translation) return own;
  return [...own, ...family.translation.fields, 'language', 'languages'];
}
