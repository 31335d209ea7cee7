// npm run format-data -- [DIR]: rewrites every data file in canonical form (schema key order,
// 2-space indentation, final newline), so a fork's diffs show only what it changed.
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { canonicalText, uncanonicalFiles } from '../src/catalog/canonical.ts';
import { readConfig } from '../src/config/env.ts';
import { writeWholeFile } from '../src/lib/whole-file.ts';

const settings = readConfig();
if ('error' in settings) {
  console.error(settings.error);
  process.exit(1);
}
const dir = resolve(process.argv[2] ?? settings.config.DATA_DIR);
const files = (await uncanonicalFiles(dir)).map((problem) => problem.file);
for (const file of files) {
  const path = join(dir, file);
  await writeWholeFile(path, canonicalText(file, JSON.parse(await readFile(path, 'utf8'))));
  console.log(`formatted ${file}`);
}
console.log(
  files.length
    ? `${files.length} file${files.length === 1 ? '' : 's'} rewritten in ${dir}`
    : `every file in ${dir} is already in canonical form`,
);
