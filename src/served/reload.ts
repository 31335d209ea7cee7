import type { Catalog } from '../catalog/catalog.ts';
import { checkData } from '../catalog/check.ts';
import { summarize } from '../catalog/summary.ts';
import { watchDataFiles } from '../catalog/watch.ts';
import type { Logger } from '../config/logger.ts';
import type { ServedCatalog } from './served-catalog.ts';

/**
 * Watches `dir` and, after each edit, loads and checks it again: a valid catalog with new
 * bytes replaces the served one in one swap (new data version, so an empty response cache;
 * an answer's ETag changes only when its bytes or headers do); an invalid one prints every
 * problem and the last good catalog stays (or, when there was none yet, requests keep getting
 * 503). Each time the data is good again after
 * a broken edit, even by a revert to what is served, one line says so. `catalog` is the one
 * loaded at boot (writes may have been applied over it since). Loads never overlap:
 * edits made during a load are picked up by one more load after it.
 *
 * @example
 * reloadOnChange(served, { dir: './data', defaultLanguage: 'en-US' }, log, catalog); // for the life of the process
 */
export function reloadOnChange(
  served: ServedCatalog,
  options: { dir: string; defaultLanguage: string; replace: (catalog: Catalog) => Promise<void> },
  log: Logger,
  catalog: Catalog | undefined = served.ready ? served.shared.catalog : undefined,
): void {
  const { replace } = options;
  let loading = false;
  let pending = false;
  let broken = !served.ready;
  // The data version last served, which the served catalog's may not be (writes over it add `.N`).
  let loaded = catalog?.version;

  const loadOnce = async () => {
    const started = performance.now();
    const { lines, result } = await checkData(options.dir, options.defaultLanguage);
    if (!result.ok) {
      broken = true;
      const serving = served.ready
        ? `still serving the last good catalog (version ${served.shared.catalog.version})`
        : 'no catalog served yet: requests get 503 until the data is good';
      log.warn(`${lines.join('\n')}\n${serving}`);
      return;
    }
    if (lines.length > 1) log.warn(lines.slice(0, -1).join('\n'));
    const summary = summarize(result.catalog, performance.now() - started);
    if (!served.ready || result.catalog.version !== loaded) {
      await replace(result.catalog);
      loaded = result.catalog.version;
      log.info(
        `${broken ? 'the data is good again: serving' : 'reloaded'} ${summary}; version ${result.catalog.version}`,
      );
    } else if (broken) {
      log.info(
        `the data is good again: it is what was served before (version ${result.catalog.version}), still serving it`,
      );
    }
    broken = false;
  };

  const reload = async () => {
    pending = true;
    if (loading) return;
    loading = true;
    try {
      while (pending) {
        pending = false;
        await loadOnce().catch((error: Error) =>
          log.warn(`reload of ${options.dir} failed: ${error.message}; still serving the last good catalog`),
        );
      }
    } finally {
      loading = false;
    }
  };

  watchDataFiles(
    options.dir,
    () => void reload(),
    (error) => log.warn(`stopped watching ${options.dir}: ${error.message}`),
  );
}
