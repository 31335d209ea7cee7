import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Problem } from '../types.ts';
import { MAX_PICTURE_BYTES, pictureType, sniffPicture } from './file-types.ts';
import { svgRefusal } from './svg-check.ts';
import { LOCAL_PICTURE } from '../../lib/formats.ts';

/** The picture files of a data directory: the bytes of those that may be served, and why the others may not. */
export interface PictureFiles {
  /** By path as records name them (`/images/…`). */
  files: Map<string, Buffer>;
  /** Paths of the files refused (each with its problem): a record naming one is not told the file is missing. */
  refused: Set<string>;
  problems: Problem[];
}

/** Why the bytes at `path` may not be served as a picture: wrong type for the name, too large, an unsafe SVG. */
function refusal(path: string, bytes: Buffer): string | undefined {
  if (bytes.length > MAX_PICTURE_BYTES)
    return `is ${bytes.length} bytes; a picture may take at most ${MAX_PICTURE_BYTES}`;
  const expected = pictureType(path);
  const found = sniffPicture(bytes);
  if (found !== expected)
    return (
      `is ${found ? `a file of type ${found}` : 'not an SVG, PNG, JPEG or WebP picture'} but its name says ` +
      `${expected}`
    );
  const unsafe = found === 'image/svg+xml' ? svgRefusal(bytes.toString('utf8')) : undefined;
  return unsafe && `is refused as a picture: ${unsafe}`;
}

/** Every file under `dir/images/` but hidden ones (`.gitkeep`), relative to `dir/images/`. */
async function listImages(dir: string): Promise<string[] | { error: string }> {
  try {
    const entries = await readdir(join(dir, 'images'), { recursive: true, withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(join(dir, 'images').length + 1))
      .filter((name) => !name.split('/').some((part) => part.startsWith('.')))
      .sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? [] : { error: code ?? (error as Error).message };
  }
}

/**
 * Reads and judges every file under `dir/images/`, named by a record or not, since a fork
 * publishes the folder as it is: a file a record may name (`/images/<folder>/<name>.<type>`)
 * must be of the type its extension says (by its magic bytes), at most `MAX_PICTURE_BYTES`,
 * and, for an SVG, a static picture (`svgRefusal`); any other file is a warning, since the
 * server never serves it and a static host would. Hidden files are left alone.
 *
 * @example
 * const { files, problems } = await readPictureFiles('./data'); // files.get('/images/actors/ana.png')
 */
export async function readPictureFiles(dir: string): Promise<PictureFiles> {
  const found: PictureFiles = { files: new Map(), refused: new Set(), problems: [] };
  const names = await listImages(dir);
  if ('error' in names) {
    found.problems.push({ file: 'images', message: `cannot be listed (${names.error})` });
    return found;
  }
  for (const name of names) {
    const file = `images/${name}`;
    const path = `/${file}`;
    if (!LOCAL_PICTURE.test(path)) {
      found.problems.push({
        file,
        severity: 'warning',
        message:
          'is not a picture a record can name (images/<folder>/' +
          '<name> ending in .svg, .png, .jpg, .jpeg or .webp): the server never serves it, and a static host ' +
          'publishing data/ would serve it as it is; move or remove it',
      });
      continue;
    }
    let bytes: Buffer;
    try {
      bytes = await readFile(join(dir, file));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      found.problems.push({ file, message: `cannot be read (${code ?? (error as Error).message})` });
      found.refused.add(path);
      continue;
    }
    const refused = refusal(path, bytes);
    if (refused) {
      found.problems.push({ file, message: refused });
      found.refused.add(path);
    } else found.files.set(path, bytes);
  }
  return found;
}
