import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';
import type { Problem } from './types.ts';

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/** The deepest node on `path` that exists: a missing field is located at its record. */
function nearest(root: Node, record: number, pointer: string | undefined): Node | undefined {
  const segments: (string | number)[] = [
    record,
    ...(pointer ?? '')
      .split('/')
      .slice(1)
      .map((s) => (/^\d+$/.test(s) ? Number(s) : s)),
  ];
  for (let length = segments.length; length > 0; length--) {
    const node = findNodeAtLocation(root, segments.slice(0, length));
    if (node) return node;
  }
  return undefined;
}

/**
 * Adds `line` and `column` to every problem of a record, from the source text of its file:
 * where the value the problem is about starts (or the record, for a field that is missing).
 * Run only when there are problems, so a good catalog pays nothing for it.
 */
export async function locateProblems(dir: string, problems: Problem[]): Promise<void> {
  const files = new Set(problems.filter((p) => p.record !== undefined && p.line === undefined).map((p) => p.file));
  for (const file of files) {
    const text = await readFile(join(dir, file), 'utf8').catch(() => undefined);
    const root = text === undefined ? undefined : parseTree(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    if (!text || !root) continue;
    const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    for (const problem of problems) {
      if (problem.file !== file || problem.record === undefined || problem.line !== undefined) continue;
      const node = nearest(root, problem.record, problem.path);
      if (node) Object.assign(problem, lineColumn(text, node.offset + bom));
    }
  }
}
