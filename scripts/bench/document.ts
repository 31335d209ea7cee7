import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { cpus } from 'node:os';

const FILE = 'docs/BENCHMARKS.md';
const HEAD = `# Benchmarks

Written by \`npm run bench\`, \`npm run bench:scale\` and the other \`bench:\` scripts; each command replaces its own section.
Targets are from the performance issue; ✓ met, ✗ missed.
`;

/** "2 cores (model), Node v20…, 2026-11-22": the machine a table was measured on. */
export async function describeMachine(): Promise<string> {
  const model = cpus()[0]?.model.trim() ?? 'unknown CPU';
  return `Measured on ${cpus().length} cores (${model}), Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`;
}

/**
 * Replaces the section named `name` of docs/BENCHMARKS.md with `text` (adding it when absent),
 * so a second run rewrites its figures instead of appending.
 *
 * @example
 * await replaceSection('scale', '## Scale\n\n| … |\n');
 */
export async function replaceSection(name: string, text: string): Promise<string> {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  let current = HEAD;
  try {
    current = await readFile(FILE, 'utf8');
  } catch {
    await mkdir('docs', { recursive: true });
  }
  const block = `${start}\n${text}${end}`;
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  const next =
    from >= 0 && to > from
      ? current.slice(0, from) + block + current.slice(to + end.length)
      : `${current.trimEnd()}\n\n${block}\n`;
  await writeFile(FILE, next);
  return FILE;
}

/**
 * Writes a bench's `text` (its tables) as the section `name` of docs/BENCHMARKS.md, under
 * `heading` and the machine it was measured on, and says so on stderr.
 *
 * @example
 * await recordSection('scale', 'Scale (npm run bench:scale)', text);
 */
export async function recordSection(name: string, heading: string, text: string): Promise<void> {
  const file = await replaceSection(name, `## ${heading}\n\n${await describeMachine()}\n\n${text}\n`);
  console.error(`wrote ${file}`);
}
