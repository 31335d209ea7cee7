// npm test's runner: every uvu suite under test/. A suite that starts redis-server or nginx,
// drives Chromium or runs the docs' curl commands needs that program on this machine. Where
// it is missing, the suite is not run and says so, with the one command that installs what it
// needs, so that `npm install && npm test` passes on a machine that has only Node. Under CI=true every suite runs, whatever
// is missing: there a missing program fails its suite, loudly.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readdirSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;

/** A program some suites need: how a suite shows it needs it, where it is looked for, and the Debian package. */
interface Program {
  name: string;
  /** An import that only a suite needing the program has. */
  usedBy: RegExp;
  found(): boolean;
  apt: string;
}

/** Whether `name` is an executable file on PATH (or in /usr/sbin, where Debian puts nginx). */
function onPath(name: string): boolean {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin'];
  return dirs.some((dir) => {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

const PROGRAMS: Program[] = [
  {
    name: 'redis-server',
    usedBy: /scripts\/lib\/redis-server\.ts'/,
    found: () => onPath('redis-server'),
    apt: 'redis-server',
  },
  { name: 'nginx', usedBy: /scripts\/lib\/nginx\.ts'/, found: () => onPath('nginx'), apt: 'nginx' },
  // The docs' commands are curl commands for the most part.
  { name: 'curl', usedBy: /helpers\/doc-session\.ts'/, found: () => onPath('curl'), apt: 'curl' },
  {
    name: 'Chromium',
    usedBy: /helpers\/browser\.ts'/,
    found: () => {
      try {
        accessSync(process.env.CHROMIUM_PATH || '/usr/bin/chromium', constants.X_OK);
        return true;
      } catch {
        return false;
      }
    },
    apt: 'chromium',
  },
];

/** The suites to run: every one, or those whose file name matches the pattern given (`npm test -- limits`). */
const pattern = new RegExp(process.argv[2] ?? '');
const suites = readdirSync(join(ROOT, 'test'))
  .filter((name) => name.endsWith('.test.ts') && pattern.test(name))
  .sort();
if (suites.length === 0) {
  console.error(`no suite under test/ matches ${pattern}`);
  process.exit(1);
}
const missing = process.env.CI === 'true' ? [] : PROGRAMS.filter((program) => !program.found());
const notRun = suites
  .map((suite) => ({
    suite,
    needs: missing.filter((program) => program.usedBy.test(readFileSync(join(ROOT, 'test', suite), 'utf8'))),
  }))
  .filter(({ needs }) => needs.length > 0);

const uvu = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    join(ROOT, 'node_modules/uvu/bin.js'),
    'test',
    `(${suites.map((suite) => suite.replace(/\./g, '\\.')).join('|')})$`,
    ...notRun.flatMap(({ suite }) => ['-i', suite]),
  ],
  {
    cwd: ROOT,
    stdio: 'inherit',
  },
);

if (notRun.length) {
  console.log(`\nNot run: ${notRun.length} of ${suites.length} suites, for want of a program on this machine:`);
  for (const { suite, needs } of notRun)
    console.log(`  ${suite} needs ${needs.map((program) => program.name).join(' and ')}`);
  console.log(
    `To run them: sudo apt-get install -y ${[...new Set(notRun.flatMap(({ needs }) => needs.map((program) => program.apt)))].join(' ')} (CI=true runs every suite)`,
  );
}
process.exit(uvu.status ?? 1);
