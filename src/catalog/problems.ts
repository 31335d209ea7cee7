import type { Problem } from './types.ts';

/**
 * One line per problem: where (`file:line:column`, the record's index and uuid, the JSON path
 * in it), then what is wrong and what would be right, e.g.
 * `actors.json:14:17: record 3 (uuid 6f0c…) /birth_date: must be a date (YYYY-MM-DD), got "1990-13-01"`.
 * Warnings and notes say so after the place.
 */
export function formatProblem(p: Problem): string {
  let where = p.file;
  if (p.line !== undefined) where += `:${p.line}:${p.column}`;
  if (p.record !== undefined) where += `: record ${p.record}${p.uuid ? ` (uuid ${p.uuid})` : ''}`;
  if (p.path) where += ` ${p.path}`;
  const kind = p.severity === 'warning' ? 'warning: ' : p.severity === 'note' ? 'note: ' : '';
  return `${where}: ${kind}${p.message}`;
}

const NOTES_LAST = (p: Problem) => (p.severity === 'note' ? 1 : 0);

/** Problems ordered by file, then record, then line, then message, notes last in a file: a stable report. */
export function sortProblems(problems: readonly Problem[]): Problem[] {
  return [...problems].sort(
    (a, b) =>
      a.file.localeCompare(b.file) ||
      NOTES_LAST(a) - NOTES_LAST(b) ||
      (a.record ?? -1) - (b.record ?? -1) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.path ?? '').localeCompare(b.path ?? '') ||
      a.message.localeCompare(b.message),
  );
}

/** Whether `problem` refuses the catalog (warnings too when `strict`). */
export function refuses(problem: Problem, strict = false): boolean {
  const severity = problem.severity ?? 'error';
  return severity === 'error' || (strict && severity === 'warning');
}
