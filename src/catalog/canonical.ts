import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { JsonSchema } from './schemas/common.ts';
import { FAMILIES } from './families.ts';
import type { Problem } from './types.ts';

/**
 * `value` with the keys of every object in the order its schema lists them; keys it does not list follow, as they were.
 */
function ordered(value: unknown, schema: JsonSchema | undefined): unknown {
  if (Array.isArray(value)) return value.map((item) => ordered(item, schema?.items));
  if (typeof value !== 'object' || value === null) return value;
  const properties = schema?.properties ?? {};
  const record = value as Record<string, unknown>;
  // Own keys only: `'toString' in properties` is true, and such a key would be dropped unseen instead of refused.
  const keys = [
    ...Object.keys(properties).filter((key) => Object.hasOwn(record, key)),
    ...Object.keys(record).filter((key) => !Object.hasOwn(properties, key)),
  ];
  return Object.fromEntries(keys.map((key) => [key, ordered(record[key], properties[key])]));
}

/** Every data file and the schema of its elements. */
function dataFiles(): { file: string; schema: JsonSchema }[] {
  return [...FAMILIES.values()].flatMap((family) => [
    { file: family.file, schema: family.schema },
    ...(family.translation ? [{ file: family.translation.file, schema: family.translation.schema }] : []),
  ]);
}

/**
 * A row of a data file with its keys in canonical order (its schema's).
 *
 * @example
 * canonicalRow('actors.json', { first_name: 'Iris', uuid: '…' }); // { uuid: '…', first_name: 'Iris' }
 */
export function canonicalRow<T>(file: string, row: T): T {
  return ordered(row, dataFiles().find((entry) => entry.file === file)?.schema) as T;
}

/**
 * The canonical text of a data file's content: each record's keys in the order of its schema,
 * two-space indentation, a trailing newline. Forks that keep their files in this form have
 * diffs that show only what they changed.
 *
 * @example
 * canonicalText('actors.json', [{ first_name: 'Iris', uuid: '…', href: '…' }]); // '[\n  {\n    "uuid": …'
 */
export function canonicalText(file: string, value: unknown): string {
  const schema = dataFiles().find((entry) => entry.file === file)?.schema;
  return `${JSON.stringify(Array.isArray(value) ? value.map((record) => ordered(record, schema)) : value, null, 2)}\n`;
}

/**
 * The data files of `dir` that parse but are not in canonical form, as warnings (`npm run
 * format-data` rewrites them); what does not parse is the loader's to report.
 */
export async function uncanonicalFiles(dir: string): Promise<Problem[]> {
  const problems: Problem[] = [];
  for (const { file } of dataFiles()) {
    const text = await readFile(join(dir, file), 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      continue;
    }
    if (text !== canonicalText(file, value))
      problems.push({
        file,
        severity: 'warning',
        message:
          'not in canonical form (schema key order, 2-space indentation, final newline): run npm run format-data',
      });
  }
  return problems;
}
