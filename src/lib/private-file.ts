import { existsSync } from 'node:fs';
import { chmod, mkdir, stat } from 'node:fs/promises';
import { dirname, parse, resolve } from 'node:path';
import { removeLeftovers } from './whole-file.ts';
import { StoreFileError } from './synced-json-file.ts';

/**
 * Creates the folders of `file` that are missing, one level at a time (mode 0700), and
 * refuses at once a location that cannot hold it: a parent that is not a folder, a
 * read-only or virtual file system (`/proc`), no permission. The error names the path.
 *
 * @example
 * await makeParentFolders('var/accounts.json'); // creates ./var if missing
 */
export async function makeParentFolders(file: string): Promise<void> {
  const folder = resolve(dirname(file));
  const missing: string[] = [];
  let existing = folder;
  for (;;) {
    const found = await stat(existing).catch((error: NodeJS.ErrnoException) =>
      error.code === 'ENOENT' ? undefined : Promise.reject(error),
    );
    if (found) {
      if (!found.isDirectory()) throw new StoreFileError(file, `cannot be created: ${existing} is not a folder`);
      break;
    }
    missing.unshift(existing);
    if (existing === parse(existing).root) break;
    existing = dirname(existing);
  }
  for (const path of missing) {
    try {
      await mkdir(path, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new StoreFileError(
          file,
          `cannot be created: making ${path} failed (${(error as NodeJS.ErrnoException).code})`,
        );
      }
    }
  }
}

/**
 * Takes the group and other permissions off `file` when it has any (it holds password hashes
 * or a signing key), saying so through `warn`. A missing file is left alone.
 *
 * @example
 * await keepPrivate('var/accounts.json', log.warn); // 0644 → 0600, one warning line
 */
export async function keepPrivate(file: string, warn: (line: string) => void): Promise<void> {
  const found = await stat(file).catch(() => undefined);
  if (!found || (found.mode & 0o077) === 0) return;
  await chmod(file, found.mode & 0o700);
  warn(
    `${file} was readable by others (mode ${(found.mode & 0o777).toString(8)}); tightened it to ` +
      `${(found.mode & 0o700).toString(8)}`,
  );
}

/**
 * Readies a store's file before it is read: its folders made, its permissions kept private,
 * and what an interrupted write left beside it removed (said through `warn`).
 *
 * @example
 * await prepareStoreFile('var/accounts.json', log.warn);
 */
export async function prepareStoreFile(file: string, warn: (line: string) => void): Promise<void> {
  await makeParentFolders(file);
  await keepPrivate(file, warn);
  const leftovers = await removeLeftovers(file);
  if (leftovers.length) warn(`removed what an interrupted write of ${file} left: ${leftovers.join(', ')}`);
}

/**
 * `error` as it is, unless it says `file` cannot be used and the version before its last write
 * is kept beside it: then the same error, naming the one command that restores that version.
 */
export function withRestoreHint(file: string, error: unknown): unknown {
  const previous = `${file}.previous`;
  if (!(error instanceof StoreFileError) || !existsSync(previous)) return error;
  return new StoreFileError(
    file,
    `${error.message.slice(file.length + 2)}. The version before the last write is kept: restore it with  cp ` +
      `${previous} ${file}`,
  );
}
