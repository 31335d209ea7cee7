import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Catalog } from './catalog.ts';
import { FAMILIES, type Family, type FamilyName } from './families.ts';
import { checkConsistency } from './consistency-check.ts';
import { locateProblems } from './locate.ts';
import { checkOverview } from './overview-check.ts';
import type { PictureLookup } from './pictures/picture-names.ts';
import { readPictureFiles } from './pictures/picture-files.ts';
import { refuses, sortProblems } from './problems.ts';
import { parseJson } from '../lib/json.ts';
import type { Checked, CheckedFamily } from './reference-check.ts';
import { checkAcrossRecords } from './cross-record-check.ts';
import { checkSchema } from './schema-check.ts';
import { indexFamily } from './index-family.ts';
import type { FamilyStore } from './store.ts';
import type { CatalogRecord, Problem } from './types.ts';
import { translationFields } from './translation-columns.ts';

/** A loaded catalog (with the warnings it can be served despite), or every problem that refused it. */
export type LoadResult =
  { ok: true; catalog: Catalog; files: number; warnings: Problem[] } | { ok: false; problems: Problem[] };

interface Read {
  problems: Problem[];
  /** Files whose JSON does not parse. */
  unparsed: Set<string>;
  hash: ReturnType<typeof createHash>;
  files: number;
}

/** Reads and parses one file; a missing file is `undefined` (an empty family), not a problem. */
async function readJson(dir: string, file: string, read: Read): Promise<unknown> {
  let bytes: Buffer;
  try {
    bytes = await readFile(join(dir, file));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    read.problems.push({ file, message: `cannot be read (${code ?? (error as Error).message})` });
    return undefined;
  }
  read.files++;
  // The bytes as read are hashed: no copy of a text that may be hundreds of megabytes.
  read.hash.update(`${file}\0`).update(bytes).update('\0');
  const parsed = parseJson(bytes.toString('utf8'));
  if ('error' in parsed) {
    read.problems.push({
      file,
      line: parsed.error.line,
      column: parsed.error.column,
      message: `invalid JSON: ${parsed.error.message}`,
    });
    read.unparsed.add(file);
    return undefined;
  }
  return parsed.value;
}

/**
 * Loads a data directory: parses every file, validates it against the family schemas and the
 * cross-record rules, and on success indexes it into stores. Every problem is reported at
 * once, sorted by file; nothing is built when there is any.
 *
 * @example
 * const result = await loadCatalog('./data', { defaultLanguage: 'en-US' });
 * if (!result.ok) console.error(result.problems.map(formatProblem).join('\n'));
 */
export async function loadCatalog(dir: string, options: { defaultLanguage: string }): Promise<LoadResult> {
  const read: Read = { problems: [], unparsed: new Set(), hash: createHash('sha256'), files: 0 };
  const checked = new Map<FamilyName, CheckedFamily>();

  for (const family of FAMILIES.values()) {
    const check = async (file: string) => {
      const value = await readJson(dir, file, read);
      const result = checkSchema(file, value ?? [], family);
      // A file that does not parse is one problem (its JSON syntax), reported by readJson.
      if (value !== undefined) read.problems.push(...result.problems);
      return { ...result, unreadable: read.unparsed.has(file) || (value !== undefined && !Array.isArray(value)) };
    };
    const records = await check(family.file);
    const translations = family.translation ? (await check(family.translation.file)).records : [];
    checked.set(family.name, {
      family,
      records: records.records,
      translations,
      uuids: records.uuids,
      unreadable: records.unreadable,
    });
  }

  const overview = checked.get('overview')!;
  const { languages, problems: overviewProblems } = checkOverview(
    overview,
    options.defaultLanguage,
    read.problems.some((p) => p.file === overview.family.file),
  );
  const pictures = await readPictureFiles(dir);
  const lookup: PictureLookup = {
    hasFile: (path) => pictures.files.has(path) || pictures.refused.has(path),
    hasRecord: (family, uuid) => checked.get(family)!.uuids.has(uuid),
  };
  read.problems.push(
    ...overviewProblems,
    ...checkAcrossRecords(checked, { languages, defaultLanguage: options.defaultLanguage, pictures: lookup }),
    ...checkConsistency(checked),
    ...pictures.problems,
  );
  // A changed picture is a new version, as a changed data file is.
  for (const [path, bytes] of pictures.files) read.hash.update(`${path}\0`).update(bytes).update('\0');
  const refused = read.problems.some((problem) => refuses(problem));
  // Lines and columns come from the source texts, read again only when there is something to point at.
  if (read.problems.length > 0) await locateProblems(dir, read.problems);
  if (refused) return { ok: false, problems: sortProblems(read.problems) };

  const stores = new Map<FamilyName, FamilyStore>();
  for (const { family, records, translations } of checked.values()) {
    stores.set(family.name, buildStore(family, records, translations, languages!, options.defaultLanguage));
  }
  const version = read.hash.digest('hex').slice(0, 16);
  return {
    ok: true,
    catalog: new Catalog(stores, languages!, options.defaultLanguage, version, pictures.files),
    files: read.files,
    warnings: sortProblems(read.problems),
  };
}

function buildStore(
  family: Family,
  records: Checked[],
  rows: Checked[],
  languages: string[],
  defaultLanguage: string,
): FamilyStore {
  const parentKey = family.translation?.parentKey;
  const translations = parentKey
    ? rows.map(({ record: row }) => ({
        uuid: row[parentKey] as string,
        language: row.language as string,
        fields: translationFields(row, parentKey),
      }))
    : [];
  return indexFamily(
    family,
    { records: records.map((r) => r.record as CatalogRecord), translations },
    languages,
    defaultLanguage,
  );
}
