// Whether a record as GraphQL answered it (every field selected as CatalogShape.selectionOf
// selects it) says what REST's answer for the same record and language says, field by field.
import { isDeepStrictEqual } from 'node:util';
import type { CatalogShape, ShapeField } from './graphql-shape.ts';

/** A JSON object: a record as one face answers it. */
type JsonObject = Record<string, unknown>;

/** The uuid an href ends with: "/api/v1/seasons/<uuid>" → "<uuid>". */
const uuidOf = (href: string) => href.slice(href.lastIndexOf('/') + 1);

/** The value without its null fields, at any depth: GraphQL answers null where REST leaves a field out. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (v === null ? [] : [[k, withoutNulls(v)]])));
}

/**
 * The fields of a record only GraphQL has, none of them in REST's answer for the record: each
 * is answered by REST at a path under the record's (a 404 there standing for null), given the
 * language the crawl asked for. No field is on one face only.
 */
export const SUBRESOURCES: Record<string, (language: string) => string> = {
  // REST answers one language per record answer; its translations are a list of their own.
  translations: () => '/translations',
  translation: (language) => `/translations/${language}`,
};

/** A record as REST answers it, with the answers of its SUBRESOURCES the GraphQL type has (null for a 404). */
export interface RestRecord {
  record: JsonObject;
  subresources: Map<string, unknown>;
}

function linkDisagreement(field: ShapeField, value: unknown, rest: unknown): string | undefined {
  const answered =
    value === null
      ? null
      : field.list
        ? (value as { uuid: string }[]).map((v) => v.uuid)
        : (value as { uuid: string }).uuid;
  const expected = rest === undefined ? null : field.list ? (rest as string[]).map(uuidOf) : uuidOf(rest as string);
  return isDeepStrictEqual(answered, expected)
    ? undefined
    : `${JSON.stringify(answered)}, REST ${JSON.stringify(expected)}`;
}

/**
 * Every way the GraphQL record of `type` differs from REST's answer `rest` for the same
 * record in `language`, one line each naming the field: links compared by the uuids their
 * hrefs end with, null in GraphQL standing for a field REST leaves out, the fields REST
 * serves under the record's path (SUBRESOURCES) compared with those answers.
 *
 * @example
 * disagreements(shape, 'Season', { uuid, title: 'O Sinal', episodes: [{ uuid: 'a0f7…' }], … }, { record: restSeason, subresources }, 'pt-BR'); // []
 */
export function disagreements(
  shape: CatalogShape,
  type: string,
  record: JsonObject,
  { record: rest, subresources }: RestRecord,
  language: string,
): string[] {
  const fields = shape.fieldsOf(type);
  const problems: string[] = [];
  const at = `${type} ${String(rest.uuid)} in ${language}`;
  for (const field of fields) {
    const value = record[field.name];
    const expected = subresources.has(field.name) ? subresources.get(field.name) : rest[field.name];
    let problem: string | undefined;
    if (field.kind === 'link') problem = linkDisagreement(field, value, expected);
    else if (!isDeepStrictEqual(withoutNulls(value), withoutNulls(expected ?? null)))
      problem = `${JSON.stringify(value)}, REST ${JSON.stringify(expected)}`;
    if (problem) problems.push(`${at}: ${field.name}: GraphQL ${problem}`);
  }
  for (const name of Object.keys(rest))
    if (!fields.some((f) => f.name === name)) problems.push(`${at}: ${name}: only REST has it`);
  return problems;
}
