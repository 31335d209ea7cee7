// npm run build: compiles src/ to dist/ with tsc and copies the reference page's own files.
// `npm start` runs it first with --if-stale: it builds only when dist/ is missing or older
// than a source, so it also works after `npm prune --omit=dev` (without TypeScript) on a
// current build. Plain JavaScript: it must run where neither tsx nor TypeScript is installed.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const stamp = join(root, 'dist', '.build-stamp');
const inputs = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

/** The newest modification time among `path` and everything below it. */
function newest(path) {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(info.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const stale = !existsSync(stamp) || Math.max(...inputs.map((input) => newest(join(root, input)))) > statSync(stamp).mtimeMs;
if (process.argv.includes('--if-stale') && !stale) process.exit(0);

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  console.error('dist/ is missing or older than src/, and TypeScript is not installed to build it: run `npm ci` then `npm run build`');
  process.exit(1);
}
console.error('building dist/ from src/ (tsc)');
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
cpSync(join(root, 'src', 'docs', 'page'), join(root, 'dist', 'docs', 'page'), { recursive: true });
writeFileSync(stamp, `${new Date().toISOString()}\n`);
