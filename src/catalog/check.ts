import { loadCatalog, type LoadResult } from './load.ts';
import { formatProblem, refuses } from './problems.ts';
import type { Problem } from './types.ts';

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/**
 * Loads `dir` and describes the outcome in lines for a terminal: one line per problem,
 * warning and note, then a summary. Shared by `npm run check-data`, the server's boot and the
 * data watcher. Warnings leave the catalog usable; with `strict` (a fork's CI) they refuse
 * it, as do the `extra` problems a strict check adds (files not in canonical form).
 *
 * @example
 * const { ok, lines } = await checkData('./data', 'en-US'); // lines: ['ok: 110 records in 13 files']
 */
export async function checkData(
  dir: string,
  defaultLanguage: string,
  { strict = false, extra = [] as Problem[] } = {},
): Promise<{ ok: boolean; lines: string[]; result: LoadResult }> {
  const result = await loadCatalog(dir, { defaultLanguage });
  const all = [...(result.ok ? result.warnings : result.problems), ...extra];
  const refused = all.filter((problem) => refuses(problem, strict));
  const warnings = all.filter((problem) => problem.severity === 'warning' && !refuses(problem, strict));
  const lines = all.map(formatProblem);
  if (!result.ok || refused.length > 0) {
    return {
      ok: false,
      lines: [
        ...lines,
        `${count(refused.length, 'problem')}` +
          `${warnings.length ? ` and ${count(warnings.length, 'warning')}` : ''} in ${dir}`,
      ],
      result,
    };
  }
  const summary = `ok: ${result.catalog.recordCount} records in ${result.files} files`;
  return {
    ok: true,
    lines: [
      ...lines,
      warnings.length
        ? `${summary}, ${count(warnings.length, 'warning')} (npm run check-data -- --strict refuses them)`
        : summary,
    ],
    result,
  };
}
