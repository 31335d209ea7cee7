import type { Problem } from './types.ts';

/**
 * One line per problem, e.g.
 * `actors.json: record 3 (uuid 6f0c…) /birth_date: must be a date (YYYY-MM-DD), got "1990-13-01"`.
 */
export function formatProblem(p: Problem): string {
  let where = p.file;
  if (p.line !== undefined) where += `:${p.line}:${p.column}`;
  if (p.record !== undefined) where += `: record ${p.record}${p.uuid ? ` (uuid ${p.uuid})` : ''}`;
  if (p.path) where += ` ${p.path}`;
  return `${where}: ${p.message}`;
}

/** Problems ordered by file, then record, then line, then message: a stable report. */
export function sortProblems(problems: readonly Problem[]): Problem[] {
  return [...problems].sort(
    (a, b) =>
      a.file.localeCompare(b.file) ||
      (a.record ?? -1) - (b.record ?? -1) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.path ?? '').localeCompare(b.path ?? '') ||
      a.message.localeCompare(b.message),
  );
}
