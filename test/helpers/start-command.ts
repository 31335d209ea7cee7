import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The repository (spawn.ts, which starts servers with these, says so too). */
const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * Node's arguments as `npm start` gives them (`exec node <flags> dist/main.js`), read from
 * package.json: a test server is started exactly as a user's.
 */
export const START_ARGS: readonly string[] = (() => {
  const script = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts.start!;
  const words = script.trim().split(/\s+/);
  const node = words.indexOf('node');
  if (node < 0 || words.at(-1) !== 'dist/main.js') throw new Error(`npm start is not 'node … dist/main.js': ${script}`);
  return words.slice(node + 1);
})();

let built = false;

/** Builds dist/ once per test process when it was built from other sources (as `npm start`'s prestart does). */
export function ensureBuilt(): void {
  if (built) return;
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--if-stale'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  built = true;
}
