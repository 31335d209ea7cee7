import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { folderGraph } from '../scripts/lib/folder-graph.ts';
import { ROOT } from './helpers/spawn.ts';

test('CONTRIBUTING.md shows the folder graph the code has (npm run architecture prints it)', async () => {
  const text = await readFile(join(ROOT, 'CONTRIBUTING.md'), 'utf8');
  const shown = /<!-- folder-graph -->\n```\n([\s\S]*?)\n```\n<!-- \/folder-graph -->/.exec(text)?.[1];
  assert.ok(shown, 'CONTRIBUTING.md has the folder-graph block');
  assert.fixture(shown!, await folderGraph());
});

test.run();
