// npm run classroom: the compiled server (dist/main.js, built by `preclassroom` when stale) in
// classroom mode, on every interface; at boot it prints the addresses to give students and a QR
// code of the first (src/http/classroom-banner.ts). `CLASSROOM=on npm start` does the same.
//
// package.json runs it as `exec node … scripts/classroom.ts`, as `npm start` and `npm run dev`
// run theirs (see scripts/dev.ts): the server runs in this process, which npm's signals reach.
// `npm run classroom -- reset` empties every sandbox (the sandboxes file, under its lock, or with
// ACCOUNTS_STORE=redis the accounts' Redis, in one step); running servers notice within a second.
import { resetEverySandbox } from '../src/catalog-writes/sandbox-resets.ts';
import { readConfig } from '../src/config/env.ts';
import { createLogger } from '../src/config/logger.ts';
import { openSandboxesStore, sandboxPlace } from '../src/parts.ts';

const USAGE =
  "usage: npm run classroom            (starts the server in classroom mode; see docs/classroom.md)\n       npm run classroom -- reset   (resets every student's sandbox)";

const [command, ...rest] = process.argv.slice(2);
if ((command !== undefined && command !== 'reset') || rest.length) {
  console.error(USAGE);
  process.exit(1);
}
if (command === 'reset') {
  const settings = readConfig();
  if ('error' in settings) {
    console.error(settings.error);
    process.exit(1);
  }
  const log = createLogger({ level: 'warn', format: 'text' });
  try {
    const store = await openSandboxesStore(settings.config, log);
    const dropped = await resetEverySandbox(store);
    store.close();
    console.log(`every sandbox reset: ${dropped} write(s) dropped from ${sandboxPlace(settings.config)}`);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  process.exit(0);
}
process.env.CLASSROOM = 'on';
process.env.HOST ||= '0.0.0.0';
// @ts-expect-error: the bundle has no types; it starts the server when loaded.
await import('../dist/main.js');
