import { watch } from 'node:fs';

/** How long a burst of file events (an editor's save, a `git checkout`) is left to settle. */
const SETTLE_MS = 100;

/**
 * Calls `onChange` once a burst of changes to JSON files anywhere under `dir` has settled.
 * Other files (editor swap and backup files) are ignored. `onError` hears a watcher failure
 * (the directory removed, the system's watch limit reached); watching then stops. The
 * watch lasts as long as the process.
 *
 * @example
 * watchJsonFiles('./data', () => reload(), (error) => log.warn(error.message));
 */
export function watchJsonFiles(dir: string, onChange: () => void, onError: (error: Error) => void): void {
  let timer: NodeJS.Timeout | undefined;
  const watcher = watch(dir, { recursive: true }, (_event, file) => {
    if (file !== null && !file.endsWith('.json')) return;
    clearTimeout(timer);
    timer = setTimeout(onChange, SETTLE_MS);
  });
  watcher.on('error', onError);
}
