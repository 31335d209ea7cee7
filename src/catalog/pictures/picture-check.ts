import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FamilyName } from '../families.ts';
import type { CheckedFamily } from '../reference-check.ts';
import type { Problem } from '../types.ts';
import { MAX_PICTURE_BYTES, pictureType, sniffPicture, unsafeSvg } from './file-types.ts';
import { LOCAL_PICTURE } from '../../lib/formats.ts';
import { generatedPicturePath, isGeneratedPicture, pictureReferences } from './references.ts';

/** What a picture file is: its bytes when it may be served, else why it is refused. */
type Examined = { bytes: Buffer } | { missing: true } | { refused: string };

/**
 * The `/images/…` paths of every file under `dir/images/`, listed once: a reference to a
 * drawn picture (every record's, in a generated catalog of millions) then costs no failed
 * open: the embedded catalog's 272 failed opens kept 5 MB more resident on Node 26. Undefined when the folder
 * cannot be listed: each file is then tried, and its own error named.
 */
async function filesUnderImages(dir: string): Promise<Set<string> | undefined> {
  try {
    return new Set((await readdir(join(dir, 'images'), { recursive: true })).map((name) => `/images/${name}`));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? new Set() : undefined;
  }
}

/** Reads and judges one picture file under `dir`: type by magic bytes, size, and an SVG's safety. */
async function examine(dir: string, path: string, present: ReadonlySet<string> | undefined): Promise<Examined> {
  if (present && !present.has(path)) return { missing: true };
  let bytes: Buffer;
  try {
    bytes = await readFile(join(dir, path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { missing: true };
    return { refused: `cannot be read (${code ?? (error as Error).message})` };
  }
  if (bytes.length > MAX_PICTURE_BYTES)
    return { refused: `is ${bytes.length} bytes; a picture may take at most ${MAX_PICTURE_BYTES}` };
  const expected = pictureType(path);
  const found = sniffPicture(bytes);
  if (found !== expected)
    return {
      refused: `is ${found ? `a ${found} file` : 'not an SVG, PNG, JPEG or WebP picture'} but its name says ${expected}`,
    };
  const unsafe = found === 'image/svg+xml' ? unsafeSvg(bytes.toString('utf8')) : undefined;
  if (unsafe)
    return {
      refused: `is an SVG with ${unsafe}: pictures may hold no scripts, event handlers or references to other documents`,
    };
  return { bytes };
}

/**
 * Checks every local picture the records name (`/images/…` in `thumbnail` and `images`): it
 * must be a file under `dir/images/` of an accepted type (SVG, PNG, JPEG or WebP by its magic
 * bytes, matching its extension), at most `MAX_PICTURE_BYTES`, an SVG without scripts, event
 * handlers or external references; or, with no file there, one of the record's own generated
 * pictures, which the server draws. Returns the problems and the bytes of the files found.
 *
 * @example
 * const { problems, files } = await checkPictures('./data', checked);
 */
export async function checkPictures(
  dir: string,
  checked: ReadonlyMap<FamilyName, CheckedFamily>,
): Promise<{ problems: Problem[]; files: Map<string, Buffer> }> {
  const problems: Problem[] = [];
  const examined = new Map<string, Promise<Examined>>();
  const files = new Map<string, Buffer>();
  const present = await filesUnderImages(dir);
  for (const { family, records } of checked.values()) {
    for (const { index, record } of records) {
      for (const { path, at, variant } of pictureReferences(record)) {
        const where = {
          file: family.file,
          record: index,
          ...(typeof record.uuid === 'string' ? { uuid: record.uuid } : {}),
          path: at,
        };
        // A malformed path is the schema check's to name (format picture-url).
        if (!LOCAL_PICTURE.test(path)) continue;
        if (!examined.has(path)) examined.set(path, examine(dir, path, present));
        const outcome = await examined.get(path)!;
        if ('bytes' in outcome) files.set(path, outcome.bytes);
        else if ('refused' in outcome) problems.push({ ...where, message: `${path.slice(1)} ${outcome.refused}` });
        else if (!isGeneratedPicture(path, family.name, record)) {
          const own =
            typeof record.uuid === 'string'
              ? `, or name the picture the server draws for this record ('${generatedPicturePath(family.name, record.uuid, variant)}')`
              : '';
          problems.push({
            ...where,
            message: `'${path}' is not a file under images/ in the data directory: add the picture there${own}`,
          });
        }
      }
    }
  }
  return { problems, files };
}
