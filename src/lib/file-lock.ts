import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { lock } from 'proper-lockfile';
import { StoreFileError } from './synced-json-file.ts';

/**
 * Holds `<file>.lock` while `change` runs, so that the server and a command-line tool
 * (`npm run accounts`, `npm run catalog`) never write `file` over each other. A lock left by a
 * killed process is taken over once 5 s old; waiting gives up after 7.5 s.
 *
 * @example
 * await underLock('var/accounts.json', log.warn, async () => { … read, decide, write … });
 */
export async function underLock<T>(file: string, warn: (line: string) => void, change: () => Promise<T>): Promise<T> {
  const release = await lock(file, {
    realpath: false,
    stale: 5_000,
    retries: { retries: 150, factor: 1, minTimeout: 50, maxTimeout: 50 },
    onCompromised: (error) => warn(`lock on ${file} compromised: ${error.message}`),
  });
  try {
    return await change();
  } finally {
    await release();
  }
}

/**
 * Changes whenever the file is replaced (a whole write renames a new inode over it) or
 * appended to; `missing` when there is no file.
 */
export async function fileVersion(file: string): Promise<string> {
  try {
    return versionOf(await stat(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw new StoreFileError(file, `cannot be read (${(error as NodeJS.ErrnoException).code})`);
  }
}

/** The version `fileVersion` reads, from stats already at hand (those of a handle just written). */
export function versionOf({ ino, size, mtimeMs, ctimeMs }: Stats): string {
  return `${ino}:${size}:${mtimeMs}:${ctimeMs}`;
}
