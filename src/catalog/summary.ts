import type { Catalog } from './catalog.ts';

/**
 * The boot summary: records per family, languages and load time, e.g.
 * `catalog: 110 records (actors 20, characters 20, ...) in 84 ms; languages en-US (default), pt-BR`.
 */
export function summarize(catalog: Catalog, loadMs: number): string {
  const families = Object.entries(catalog.counts())
    .map(([name, n]) => `${name} ${n}`)
    .join(', ');
  const languages = catalog.languages.map((l) => (l === catalog.defaultLanguage ? `${l} (default)` : l)).join(', ');
  return `catalog: ${catalog.recordCount} records (${families}) in ${Math.round(loadMs)} ms; languages ${languages}`;
}
