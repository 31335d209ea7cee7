import { checkData } from '../catalog/check.ts';
import { summarize } from '../catalog/summary.ts';
import { watchJsonFiles } from '../catalog/watch.ts';
import type { Logger } from '../config/logger.ts';
import type { ServedCatalog } from './state.ts';

/**
 * Watches `dir` and, after each edit, loads and checks it again: a valid catalog with new
 * bytes replaces the served one in one swap (new data version, so new ETags and an empty
 * response cache); an invalid one prints every problem and the last good catalog stays.
 * Loads never overlap: edits made during a load are picked up by one more load after it.
 *
 * @example
 * reloadOnChange(served, { dir: './data', defaultLanguage: 'en-US' }, log); // for the life of the process
 */
export function reloadOnChange(served: ServedCatalog, options: { dir: string; defaultLanguage: string }, log: Logger): void {
  let loading = false;
  let pending = false;

  const loadOnce = async () => {
    const started = performance.now();
    const { lines, result } = await checkData(options.dir, options.defaultLanguage);
    if (!result.ok) {
      log.warn(`${lines.join('\n')}\nstill serving the last good catalog (version ${served.current.catalog.version})`);
    } else if (result.catalog.version !== served.current.catalog.version) {
      served.replace(result.catalog);
      log.info(`reloaded ${summarize(result.catalog, performance.now() - started)}; version ${result.catalog.version}`);
    }
  };

  const reload = async () => {
    pending = true;
    if (loading) return;
    loading = true;
    try {
      while (pending) {
        pending = false;
        await loadOnce().catch((error: Error) => log.warn(`reload of ${options.dir} failed: ${error.message}; still serving the last good catalog`));
      }
    } finally {
      loading = false;
    }
  };

  watchJsonFiles(options.dir, () => void reload(), (error) => log.warn(`stopped watching ${options.dir}: ${error.message}`));
}
