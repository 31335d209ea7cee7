import { readdirSync, watch } from 'node:fs';
import { join } from 'node:path';

/** How long a burst of file events (an editor's save, a `git checkout`) is left to settle. */
const SETTLE_MS = 100;

/** The files a catalog is made of: data files and the pictures records name. */
const DATA_FILE = /\.(?:json|svg|png|jpe?g|webp)$/i;

/** `dir` and its subfolders (`translations/`), as they are when the watch starts. */
function folders(dir: string): string[] {
  const below = readdirSync(dir, { withFileTypes: true }).filter(
    (entry) => entry.isDirectory() && entry.name !== 'schemas',
  );
  return [dir, ...below.flatMap((entry) => folders(join(dir, entry.name)))];
}

/**
 * Calls `onChange` once a burst of changes to JSON files or pictures (`images/`) in `dir` or
 * its subfolders has settled. Each folder is watched itself, not its files: an editor that saves by renaming a
 * new file over the old one replaces the file, and a watch on the file (what Node's recursive
 * watch sets up on Linux) would not see the edits after that. Other files (editor swap and
 * backup files, the generated `schemas/`) are ignored. `onError` hears a watcher failure (the
 * directory removed, the system's watch limit reached); that folder's watch then stops. The
 * watch lasts as long as the process.
 *
 * @example
 * watchDataFiles('./data', () => reload(), (error) => log.warn(error.message));
 */
export function watchDataFiles(dir: string, onChange: () => void, onError: (error: Error) => void): void {
  let timer: NodeJS.Timeout | undefined;
  for (const folder of folders(dir)) {
    const watcher = watch(folder, (_event, file) => {
      if (file !== null && !DATA_FILE.test(file)) return;
      clearTimeout(timer);
      timer = setTimeout(onChange, SETTLE_MS);
    });
    watcher.on('error', onError);
  }
}
