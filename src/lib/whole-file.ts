import { randomBytes } from 'node:crypto';
import { copyFile, link, open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Writes up to `length` bytes of `buffer` from `offset`; resolves with how many were written. */
export type WriteSome = (handle: FileHandle, buffer: Uint8Array, offset: number, length: number) => Promise<number>;

export interface WholeFileOptions {
  /** Permissions of a new file (0600 for secrets); 0666 less the umask otherwise. */
  mode?: number;
  /** Keep the file being replaced as `<file>.previous`, so one good version survives anything. */
  keepPrevious?: boolean;
  /** Create the file only if it does not exist yet; an existing one is left alone (EEXIST). */
  exclusive?: boolean;
  /** The low-level write: tests give one that writes a few bytes at a time. */
  writeSome?: WriteSome;
}

const writeSome: WriteSome = async (handle, buffer, offset, length) =>
  (await handle.write(buffer, offset, length)).bytesWritten;

/** The temporary files `writeWholeFile` makes for `file`: `<name>.<random>.tmp` beside it. */
const TEMPORARY = /^(.+)\.[0-9a-f]{12}\.tmp$/;

/** An error with the errno code, path and syscall Node gives its own. */
function fsError(code: string, message: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}, ${path}`), { code, path });
}

async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Puts `temporary` in place of `file.previous` as a second name of `file`'s current content, or a copy where links are
 * not possible.
 */
async function keepPrevious(file: string, temporary: string): Promise<void> {
  const previous = `${file}.previous`;
  const staged = `${temporary}.previous`;
  try {
    await link(file, staged);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return; // nothing to keep yet
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'EMLINK') throw error;
    await copyFile(file, staged);
  }
  await rename(staged, previous);
}

/**
 * Writes `data` to `file` completely or not at all: into a temporary file beside it, looping
 * until every byte is written (a filling disk makes write(2) return short counts before it
 * fails), flushed, its size checked, then renamed over `file` (linked, when `exclusive`) and
 * the folder flushed. On any failure the temporary file is removed and `file` is untouched:
 * the error (ENOSPC, EDQUOT, EIO, EROFS…) names the path.
 *
 * @example
 * await writeWholeFile('var/accounts.json', text, { mode: 0o600, keepPrevious: true });
 */
export async function writeWholeFile(
  file: string,
  data: string | Uint8Array,
  options: WholeFileOptions = {},
): Promise<void> {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const temporary = join(dirname(file), `${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const write = options.writeSome ?? writeSome;
  const handle = await open(temporary, 'wx', options.mode ?? 0o666);
  try {
    try {
      for (let offset = 0; offset < bytes.length;) {
        const written = await write(handle, bytes, offset, bytes.length - offset);
        if (written <= 0) throw fsError('ENOSPC', `no byte written at ${offset} of ${bytes.length}`, temporary);
        offset += written;
      }
      await handle.sync();
      const { size } = await handle.stat();
      if (size !== bytes.length) throw fsError('EIO', `holds ${size} bytes after writing ${bytes.length}`, temporary);
    } finally {
      await handle.close();
    }
    if (options.keepPrevious) await keepPrevious(file, temporary);
    if (options.exclusive) await link(temporary, file);
    else await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    await rm(`${temporary}.previous`, { force: true });
    throw error;
  }
  if (options.exclusive) await rm(temporary, { force: true });
  await syncFolder(dirname(file));
}

/**
 * Removes what an interrupted `writeWholeFile` of `file` left beside it (a crash between
 * creating its temporary file and the rename). Returns the names removed.
 *
 * @example
 * await removeLeftovers('var/accounts.json'); // ['accounts.json.3f9a0c1b2d4e.tmp']
 */
export async function removeLeftovers(file: string): Promise<string[]> {
  const name = basename(file);
  const removed: string[] = [];
  for (const entry of await readdir(dirname(file)).catch(() => [] as string[])) {
    const base = TEMPORARY.exec(entry.replace(/\.previous$/, ''))?.[1];
    if (base !== name) continue;
    await rm(join(dirname(file), entry), { force: true });
    removed.push(entry);
  }
  return removed;
}
