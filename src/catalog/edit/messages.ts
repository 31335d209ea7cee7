import { FAMILIES, type FamilyName } from '../families.ts';
import type { Problem } from '../types.ts';

/** How many records a line about many names before it counts the rest. */
const MAX_NAMED = 3;

/**
 * Every problem a write met, in one message: those about the written record (and the rows of it
 * in `requested`) by their path (`/title: missing required field 'title'`), those about other
 * records by the record too.
 *
 * @example
 * problemsMessage(problems, { family: 'episodes', uuid }); // "/duration: must be >= 0, got -1; /title: …"
 */
export function problemsMessage(
  problems: readonly Problem[],
  subject: { family: FamilyName; uuid: string },
  requested: ReadonlySet<Problem> = new Set(problems),
): string {
  const family = FAMILIES.get(subject.family)!;
  // The record's translation rows are the request's only when it set them; others are named like any record's.
  const isOwn = (problem: Problem) =>
    problem.uuid === subject.uuid &&
    (problem.file === family.file || (problem.file === family.translation?.file && requested.has(problem)));
  const lines = new Set<string>();
  // Problems of other records that say the same thing (rows in a language being dropped) are one line naming a few.
  const others = new Map<string, { file: string; names: string[] }>();
  for (const problem of problems) {
    const path = problem.path ?? '';
    if (isOwn(problem)) {
      lines.add(`${path || 'the record'}: ${problem.message}`);
      continue;
    }
    const other = [...FAMILIES.values()].find((f) => f.file === problem.file || f.translation?.file === problem.file);
    const name = other ? `${other.singular} '${problem.uuid}'` : problem.file;
    const key = `${problem.file}${path}: ${problem.message}`;
    const group = others.get(key) ?? { file: problem.file, names: [] };
    if (!group.names.includes(name)) group.names.push(name);
    others.set(key, group);
    lines.add(key);
  }
  return [...lines]
    .map((line) => {
      const group = others.get(line);
      if (!group) return line;
      const rest = line.slice(group.file.length);
      if (group.names.length === 1) return `${group.names[0]}${rest}`;
      const shownNames = group.names.slice(0, MAX_NAMED).join(', ');
      const more = group.names.length > MAX_NAMED ? ` and ${group.names.length - MAX_NAMED} more` : '';
      return `${group.names.length} rows of ${group.file} (${shownNames}${more})${rest}`;
    })
    .join('; ');
}
