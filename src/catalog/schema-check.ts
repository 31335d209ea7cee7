import type { ErrorObject } from 'ajv';
import { canonicalLanguage, UUID_PATTERN } from '../lib/formats.ts';
import { compileValidator } from '../lib/validators.ts';
import { FAMILIES, type Family } from './families.ts';
import type { Checked } from './reference-check.ts';
import type { Problem } from './types.ts';

const FORMATS: Record<string, string> = {
  date: 'a date (YYYY-MM-DD)',
  uri: 'an absolute URL',
  'picture-url':
    "an absolute URL or a picture path /images/<folder>/<name> such as '/images/actors/" +
    "<uuid>.svg' (.svg, .png, .jpg, .jpeg or .webp; letters, digits, '_', '-', '.')",
  'local-date-time': 'a local date-time (YYYY-MM-DDTHH:mm:ss.SSS, no zone)',
  'language-tag': 'a BCP 47 language tag such as pt-BR',
};

function shown(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 60 ? `${json.slice(0, 57)}...` : json;
}

/** One ajv error in words a data contributor can act on. */
function explain(error: ErrorObject, family: Family): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `missing required field '${params.missingProperty}'`;
    case 'additionalProperties': {
      const field = String(params.additionalProperty);
      if (family.translation?.fields.includes(field) && error.instancePath === '') {
        return `'${field}' is translated: it belongs in ${family.translation.file}`;
      }
      return `unknown field '${field}'`;
    }
    case 'format': {
      const canonical = params.format === 'language-tag' ? canonicalLanguage(String(error.data)) : undefined;
      const hint = canonical ? ` (write '${canonical}')` : '';
      return `must be ${FORMATS[String(params.format)] ?? params.format}${hint}, got ${shown(error.data)}`;
    }
    case 'pattern':
      return params.pattern === UUID_PATTERN
        ? `must be a lowercase UUID, got ${shown(error.data)}`
        : `must match ${params.pattern}, got ${shown(error.data)}`;
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).join(', ')}, got ${shown(error.data)}`;
    default:
      return `${error.message}, got ${shown(error.data)}`;
  }
}

export interface SchemaResult {
  /** Every element that is an object, valid or not, with its position: later checks look at each field on its own. */
  records: Checked[];
  /** Whether every element matched its schema. */
  valid: boolean;
  /** Uuids of every element, valid or not, so relations to a broken record are not reported twice. */
  uuids: Set<string>;
  problems: Problem[];
}

/** ajv's errors about one value, merged: a wrong value is one problem, however many rules it breaks. */
function onePerValue(errors: readonly ErrorObject[]): ErrorObject[] {
  const byPath = new Map<string, ErrorObject>();
  for (const error of errors) {
    const params = error.params as Record<string, unknown>;
    // Missing fields and unknown fields are each their own problem, named by the field.
    const key =
      error.keyword === 'required'
        ? `${error.instancePath}/${params.missingProperty}`
        : error.keyword === 'additionalProperties'
          ? `${error.instancePath}/${params.additionalProperty}`
          : error.instancePath;
    const kept = byPath.get(key);
    // The rule that says most about what would be right wins: a list of allowed values first.
    if (!kept || (error.keyword === 'enum' && kept.keyword !== 'enum')) byPath.set(key, error);
  }
  return [...byPath.values()];
}

/** Where a problem points: the missing or unknown field itself, else the value. */
function pathOf(error: ErrorObject): string | undefined {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return `${error.instancePath}/${params.missingProperty}`;
  if (error.keyword === 'additionalProperties') return `${error.instancePath}/${params.additionalProperty}`;
  return error.instancePath || undefined;
}

/** The validator of each data file's records, by file (`actors.json`, `translations/games_translations.json`). */
const VALIDATORS = new Map(
  [...FAMILIES.values()].flatMap((family) => [
    [family.file, compileValidator(family.schema)] as const,
    ...(family.translation ? [[family.translation.file, compileValidator(family.translation.schema)] as const] : []),
  ]),
);

/**
 * Checks one data file's parsed JSON against its family's schema: the file must be an array
 * and every element must match. Every element is checked completely (ajv reports every
 * error), and every element that is an object is returned for the checks across records and
 * files.
 *
 * @example
 * checkSchema('actors.json', [{ uuid: 'x' }], family('actors')).problems[0].message; // "missing required field 'href'"
 */
export function checkSchema(file: string, value: unknown, family: Family): SchemaResult {
  if (!Array.isArray(value))
    return {
      records: [],
      valid: false,
      uuids: new Set(),
      problems: [{ file, message: 'must be a JSON array of records' }],
    };
  const validate = VALIDATORS.get(file)!;
  const records: Checked[] = [];
  const problems: Problem[] = [];
  const uuids = new Set<string>();
  value.forEach((raw, index) => {
    const record = withoutNulls(raw);
    const isObject = typeof record === 'object' && record !== null && !Array.isArray(record);
    // A translation row is named by the record it translates.
    const idKey = family.translation?.file === file ? family.translation.parentKey : 'uuid';
    const id = isObject ? (record as Record<string, unknown>)[idKey] : undefined;
    const uuid = typeof id === 'string' ? id : undefined;
    if (uuid && idKey === 'uuid') uuids.add(uuid);
    if (isObject) records.push({ index, record: record as Record<string, unknown> });
    if (validate(record)) return;
    for (const error of onePerValue(validate.errors ?? [])) {
      const path = pathOf(error);
      problems.push({
        file,
        record: index,
        ...(uuid ? { uuid } : {}),
        ...(path ? { path } : {}),
        message: explain(error, family),
      });
    }
  });
  return { records, valid: problems.length === 0, uuids, problems };
}

/**
 * Drops null-valued properties at every object level: "absent or null" mean the same in the
 * data, and responses omit both.
 */
export function withoutNulls(value: unknown): unknown {
  // Most records hold no null at all: they are kept as they are, without a copy.
  if (!holdsNull(value)) return value;
  if (Array.isArray(value)) return value.map(withoutNulls);
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value as object)) {
    if (field !== null) out[key] = withoutNulls(field);
  }
  return out;
}

function holdsNull(value: unknown): boolean {
  if (value === null) return true;
  if (typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(holdsNull);
  for (const key in value) if (holdsNull((value as Record<string, unknown>)[key])) return true;
  return false;
}
