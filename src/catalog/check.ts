import { loadCatalog, type LoadResult } from './load.ts';
import { formatProblem } from './problems.ts';

/**
 * Loads `dir` and describes the outcome in lines for a terminal: a one-line success or one
 * line per problem. Shared by `npm run check-data` and the server's boot.
 *
 * @example
 * const { ok, lines } = await checkData('./data', 'en-US'); // lines: ['ok: 215 records in 13 files']
 */
export async function checkData(dir: string, defaultLanguage: string): Promise<{ ok: boolean; lines: string[]; result: LoadResult }> {
  const result = await loadCatalog(dir, { defaultLanguage });
  if (!result.ok) {
    const count = result.problems.length;
    return { ok: false, lines: [...result.problems.map(formatProblem), `${count} problem${count === 1 ? '' : 's'} in ${dir}`], result };
  }
  return { ok: true, lines: [`ok: ${result.catalog.recordCount} records in ${result.files} files`], result };
}
