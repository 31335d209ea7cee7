import { readFile } from 'node:fs/promises';
import type { Adapter } from 'lowdb';
import { HttpError } from './http-error.ts';
import { parseJson } from './json.ts';
import { writeWholeFile } from './whole-file.ts';

/**
 * A file that cannot be used as it is: unreadable, not JSON, or not the expected shape. The
 * message names the file; nothing that throws this has written to the file. At boot the
 * service refuses to start with it; while it runs (the file was broken by hand), a request
 * that needs the file is a 503 naming it, until someone repairs it.
 *
 * @example
 * throw new StoreFileError('var/accounts.json', 'line 1, column 2: expected a value');
 */
export class StoreFileError extends HttpError {
  constructor(file: string, problem: string) {
    super(503, `${file}: ${problem}`, { 'Retry-After': '30' });
  }
}

/**
 * A lowdb adapter for one JSON file, written the way a store must be: whole or not at all
 * (`writeWholeFile`: a temporary file of mode 0600, every byte written and flushed, renamed
 * over the old file, the folder flushed), the version it replaces kept as `<file>.previous`.
 * lowdb's own JSONFile (steno) renames too, but neither sets the mode nor syncs, so a new
 * file would be world-readable.
 *
 * @example
 * const db = new Low(new SyncedJsonFile<Data>('var/accounts.json'), { accounts: [] });
 * await db.read(); // throws StoreFileError on a corrupt file
 */
export class SyncedJsonFile<T> implements Adapter<T> {
  constructor(readonly file: string) {}

  /** The parsed content, or null when the file does not exist. */
  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return null;
      throw new StoreFileError(this.file, `cannot be read (${code ?? (error as Error).message})`);
    }
    const parsed = parseJson(text);
    if ('error' in parsed)
      throw new StoreFileError(
        this.file,
        `line ${parsed.error.line}, column ${parsed.error.column}: ${parsed.error.message}`,
      );
    return parsed.value as T;
  }

  async write(data: T): Promise<void> {
    await writeWholeFile(this.file, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600, keepPrevious: true });
  }
}
