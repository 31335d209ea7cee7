import type { Catalog } from '../../src/catalog/catalog.ts';
import { loadCatalog } from '../../src/catalog/load.ts';

/** The catalog of `dir` loaded in the test's own process: the oracle a server's answers are held to. */
export async function oracleCatalog(dir: string, defaultLanguage = 'en-US'): Promise<Catalog> {
  const loaded = await loadCatalog(dir, { defaultLanguage });
  if (!loaded.ok) throw new Error(`catalog refused: ${loaded.problems[0]?.message}`);
  return loaded.catalog;
}
