import { FAMILIES, type FamilyName } from '../families.ts';
import type { Problem } from '../types.ts';

/**
 * Every problem a write met, in one message: those about the written record by their path
 * (`/title: missing required field 'title'`), those about other records by the record too.
 *
 * @example
 * problemsMessage(problems, { family: 'episodes', uuid }); // "/duration: must be >= 0, got -1; /title: …"
 */
export function problemsMessage(problems: readonly Problem[], subject: { family: FamilyName; uuid: string }): string {
  const family = FAMILIES.get(subject.family)!;
  const own = new Set([family.file, family.translation?.file]);
  const lines = problems.map((problem) => {
    const path = problem.path ?? '';
    if (problem.uuid === subject.uuid && own.has(problem.file)) return `${path || 'the record'}: ${problem.message}`;
    const other = [...FAMILIES.values()].find((f) => f.file === problem.file || f.translation?.file === problem.file);
    const name = other ? `${other.singular} '${problem.uuid}'` : problem.file;
    return `${name}${path}: ${problem.message}`;
  });
  return [...new Set(lines)].join('; ');
}
