import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from './helpers/spawn.ts';

// Every file under src/ is written by hand (the build writes to dist/, nothing generated lives in src/),
// so every one is held to the same shape; a generated file would be listed here with the reason.
const MAX_LINES = 250;
const MAX_CHARACTERS = 120;
const SOURCE = /\.(ts|mjs|js|css|html)$/;

async function sourceFiles(): Promise<string[]> {
  const entries = await readdir(join(ROOT, 'src'), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .sort();
}

async function linesOf(file: string): Promise<string[]> {
  const lines = (await readFile(join(ROOT, file), 'utf8')).split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

test(`no file under src/ is over ${MAX_LINES} lines`, async () => {
  const long: string[] = [];
  for (const file of await sourceFiles()) {
    const count = (await linesOf(file)).length;
    if (count > MAX_LINES) long.push(`${file}: ${count} lines`);
  }
  assert.ok(long.length === 0, `split these along a seam of responsibility:\n${long.join('\n')}`);
});

test(`no line under src/ is over ${MAX_CHARACTERS} characters`, async () => {
  const long: string[] = [];
  for (const file of await sourceFiles()) {
    (await linesOf(file)).forEach((line, index) => {
      // Characters as an editor counts them (code points), as Prettier's printWidth does.
      const width = [...line].length;
      if (width > MAX_CHARACTERS) long.push(`${file}:${index + 1}: ${width} characters`);
    });
  }
  assert.ok(long.length === 0, `wrap these (split a string with +, rewrap a comment):\n${long.join('\n')}`);
});

test.run();
