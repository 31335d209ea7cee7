// npm run build: compiles src/ to dist/ with tsc and copies the reference page's own files.
// `npm start` runs it first with --if-stale: it builds only when dist/ is missing or was built
// from other sources, so it also works after `npm prune --omit=dev` (without TypeScript) on a
// current build. Plain JavaScript: it must run where neither tsx nor TypeScript is installed.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
const stamp = join(dist, '.build-stamp');
const inputs = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

/** Every file at or below `path`, in a stable order; none when it is missing (a pruned copy: then the build does not match). */
function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

/**
 * A hash of the names and contents of everything the build reads. Contents, not modification
 * times: a checkout, `docker build`'s COPY or a copy without preserved times changes the times
 * of unchanged sources, and a build must not be thought stale where TypeScript is pruned.
 */
function fingerprint() {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap((input) => files(join(root, input)))) {
    hash.update(`${relative(root, file)}\0`).update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

const sources = fingerprint();
const current = existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === sources;
if (process.argv.includes('--if-stale') && current) process.exit(0);

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  console.error('dist/ is missing or was built from other sources, and TypeScript is not installed to build it: run `npm ci` then `npm run build`');
  process.exit(1);
}
console.error('building dist/ from src/ (tsc)');
// Built from scratch beside dist/, then swapped in whole: a source deleted since the last
// build leaves nothing behind, and a server still running from dist/ (an upgrade in place)
// never reads a half-built folder.
const next = join(root, 'dist.next');
const previous = join(root, 'dist.previous');
rmSync(next, { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', next], { stdio: 'inherit' });
cpSync(join(root, 'src', 'docs', 'page'), join(next, 'docs', 'page'), { recursive: true });
writeFileSync(join(next, '.build-stamp'), `${sources}\n`);
rmSync(previous, { recursive: true, force: true });
if (existsSync(dist)) renameSync(dist, previous);
renameSync(next, dist);
rmSync(previous, { recursive: true, force: true });
