import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import MarkdownIt from 'markdown-it';
import { ROOT } from './spawn.ts';

// The shell commands the docs show, as a reader would type them, for test/docs-commands.test.ts.
//
// A doc marks what a test cannot run, in an HTML comment just above the block (readers of the
// rendered page do not see it):
//   <!-- docs-test: skip (why) -->                  the whole block
//   <!-- docs-test: skip "npm install" (why) -->    the block's commands that start so
//   <!-- docs-test: env NAME='value' (why) -->      set for the block (what a prompt would be typed)

/** One command of a doc, its continuation lines joined, and the output the doc shows under it. */
export interface DocCommand {
  file: string;
  /** 1-based line of the command in its file. */
  line: number;
  text: string;
  /** The output shown as `# …` lines right under the command, `…` standing for anything. */
  shows?: string;
  /** Why it is not run, when the doc says so. */
  skipped?: string;
  /** Variables the doc sets for it. */
  env: Record<string, string>;
}

const SHELL = /^(sh|bash|shell)$/;
const MARK = /<!--\s*docs-test:\s*(skip|env)\s+(.*?)\s*-->/g;

/** Every Markdown file whose commands a reader meets: the README, CONTRIBUTING.md and docs/. */
export function docFiles(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort();
  return ['README.md', 'CONTRIBUTING.md', ...docs.map((name) => `docs/${name}`)];
}

/** The marks written in the comments between the previous block and the line `before`. */
function marksAbove(
  lines: string[],
  before: number,
): { skipAll?: string; skips: { prefix: string; why: string }[]; env: Record<string, string> } {
  const found: { skipAll?: string; skips: { prefix: string; why: string }[]; env: Record<string, string> } = {
    skips: [],
    env: {},
  };
  let start = before - 1;
  while (start >= 0 && (lines[start]!.trim() === '' || lines[start]!.trim().startsWith('<!--'))) start--;
  const text = lines.slice(start + 1, before).join('\n');
  for (const [, kind, rest] of text.matchAll(MARK)) {
    if (kind === 'skip') {
      const prefix = /^"([^"]+)"\s*(.*)$/.exec(rest!);
      const why = (text: string) => text.replace(/^\((.*)\)$/, '$1');
      if (prefix) found.skips.push({ prefix: prefix[1]!, why: why(prefix[2]!) });
      else found.skipAll = why(rest!);
    } else {
      const assignment = /^(\w+)='([^']*)'/.exec(rest!);
      if (!assignment) throw new Error(`docs-test env mark must be NAME='value': ${rest}`);
      found.env[assignment[1]!] = assignment[2]!;
    }
  }
  return found;
}

/** The output a doc shows as comment lines right under a command, or undefined. */
function shownOutput(comments: string[]): string | undefined {
  if (comments.length === 0) return undefined;
  return comments.map((line) => line.replace(/^#\s?/, '').trim()).join('');
}

/**
 * The commands of one shell block: lines ending in `\` joined to the next, and the `# …` lines
 * directly under a command taken as the output it shows (its lines joined); comments after a
 * blank line are prose, dropped.
 */
export function blockCommands(content: string, file: string, firstLine: number): Omit<DocCommand, 'skipped' | 'env'>[] {
  const commands: Omit<DocCommand, 'skipped' | 'env'>[] = [];
  const lines = content.split('\n');
  let current: { text: string; line: number; comments: string[] } | undefined;
  const flush = () => {
    if (current)
      commands.push({
        file,
        line: current.line,
        text: current.text,
        ...(shownOutput(current.comments) !== undefined ? { shows: shownOutput(current.comments)! } : {}),
      });
    current = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') {
      flush();
      continue;
    }
    if (line.trimStart().startsWith('#')) {
      // The comment lines right under a command are what it prints; a comment for the reader
      // stands above its command, after a blank line.
      current?.comments.push(line.trim());
      continue;
    }
    flush();
    let text = line;
    const start = i;
    while (text.endsWith('\\') && i + 1 < lines.length) text = `${text.slice(0, -1).trimEnd()} ${lines[++i]!.trim()}`;
    current = { text, line: firstLine + start, comments: [] };
  }
  flush();
  return commands;
}

const markdown = new MarkdownIt({ html: true });

/** Every shell command of `file`, in order, with what its doc says of running it. */
export function docCommands(file: string): DocCommand[] {
  const source = readFileSync(join(ROOT, file), 'utf8');
  const lines = source.split('\n');
  const commands: DocCommand[] = [];
  for (const token of markdown.parse(source, {})) {
    if (token.type !== 'fence' || !SHELL.test(token.info.trim()) || !token.map) continue;
    const marks = marksAbove(lines, token.map[0]);
    for (const command of blockCommands(token.content, file, token.map[0] + 2)) {
      const skip = marks.skipAll ?? marks.skips.find(({ prefix }) => command.text.startsWith(prefix))?.why;
      commands.push({ ...command, env: marks.env, ...(skip !== undefined ? { skipped: skip } : {}) });
    }
  }
  return commands;
}

/**
 * Whether `output` is what the doc shows: the same text, where `…` or `...` stands for
 * anything, whitespace at line ends and line breaks aside.
 *
 * @example
 * showsOutput('{"code":400,…}', '{"code":400,"status":"Bad Request"}'); // true
 */
export function showsOutput(shown: string, output: string): boolean {
  const pattern = shown
    .split(/…|\.\.\./)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\s\\S]*?');
  return new RegExp(`^${pattern}$`).test(
    output
      .replace(/\r/g, '')
      .replace(/\s*\n\s*/g, '')
      .trim(),
  );
}
