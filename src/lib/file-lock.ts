import fs, { statSync, type Stats } from 'node:fs';
import { setTimeout } from 'node:timers/promises';
import { lock } from 'proper-lockfile';
import { StoreFileError } from './synced-json-file.ts';

/** The file-system calls proper-lockfile makes, run synchronously: see `underLock`. */
const LOCK_CALLS = ['mkdir', 'realpath', 'stat', 'rmdir', 'utimes'] as const;
const lockFs = Object.fromEntries(
  LOCK_CALLS.map((name) => [
    name,
    (...args: unknown[]) => {
      const done = args.pop() as (error: unknown, result?: unknown) => void;
      let result: unknown;
      try {
        result = (fs[`${name}Sync`] as (...a: unknown[]) => unknown)(...args);
      } catch (error) {
        return done(error);
      }
      done(null, result);
    },
  ]),
);

/** How often, and how many times, a lock another process holds is tried again: 7.5 s in all. */
const WAIT_MS = 50;
const TRIES = 150;

/**
 * Holds `<file>.lock` while `change` runs, so that the server and a command-line tool
 * (`npm run accounts`, `npm run catalog`) never write `file` over each other. A lock left by a
 * killed process is taken over once 5 s old; waiting for one held gives up after 7.5 s. Any
 * other failure to take it (the folder removed, a read-only disk) is a `StoreFileError` (503)
 * at once: proper-lockfile's own retries tried every error again, so a missing folder took
 * 7.5 s and then surfaced as a raw `ENOENT`.
 *
 * The lock directory is made, checked and removed with synchronous calls of a few
 * microseconds: each asynchronous one is a round trip to libuv's thread pool, and those thread
 * wake-ups were a good part of a catalog write's CPU time. A held lock is still waited for on
 * timers. (proper-lockfile's own `lockSync` copies the whole `fs` module at each call and
 * forgets what it learnt of the disk's mtime precision, so it probes again every time.)
 *
 * @example
 * await underLock('var/accounts.json', log.warn, async () => { … read, decide, write … });
 */
export async function underLock<T>(file: string, warn: (line: string) => void, change: () => Promise<T>): Promise<T> {
  const release = await acquire(file, warn);
  try {
    return await change();
  } finally {
    await release();
  }
}

async function acquire(file: string, warn: (line: string) => void): Promise<() => Promise<void>> {
  for (let tries = 1; ; tries++) {
    try {
      return await lock(file, {
        realpath: false,
        stale: 5_000,
        fs: lockFs,
        onCompromised: (error) => warn(`lock on ${file} compromised: ${error.message}`),
      });
    } catch (error) {
      const { code, message } = error as NodeJS.ErrnoException;
      if (code !== 'ELOCKED') {
        const missing = code === 'ENOENT' ? ': its folder is missing' : '';
        throw new StoreFileError(file, `cannot be locked (${code ?? message}${missing})`);
      }
      if (tries === TRIES)
        throw new StoreFileError(
          file,
          `is held by another process (${file}.lock) for over 7.5 s; retry once it is done`,
        );
      await setTimeout(WAIT_MS);
    }
  }
}

/**
 * Changes whenever the file is replaced (a whole write renames a new inode over it) or
 * appended to; `missing` when there is no file. A synchronous `stat`, for the reason
 * `underLock` gives.
 */
export function fileVersion(file: string): string {
  try {
    return versionOf(statSync(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw new StoreFileError(file, `cannot be read (${(error as NodeJS.ErrnoException).code})`);
  }
}

/** The version `fileVersion` reads, from stats already at hand (those of a handle just written). */
export function versionOf({ ino, size, mtimeMs, ctimeMs }: Stats): string {
  return `${ino}:${size}:${mtimeMs}:${ctimeMs}`;
}
