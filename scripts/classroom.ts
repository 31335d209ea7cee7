// npm run classroom: the compiled server (dist/main.js, built by `preclassroom` when stale) in
// classroom mode, on every interface; at boot it prints the addresses to give students and a QR
// code of the first (src/http/classroom-banner.ts). `CLASSROOM=on npm start` does the same.
//
// package.json runs it as `exec node … scripts/classroom.ts`, as `npm start` and `npm run dev`
// run theirs (see scripts/dev.ts): the server runs in this process, which npm's signals reach.
const USAGE = 'usage: npm run classroom   (starts the server in classroom mode; see docs/classroom.md)';

if (process.argv.length > 2) {
  console.error(USAGE);
  process.exit(1);
}
process.env.CLASSROOM = 'on';
process.env.HOST ||= '0.0.0.0';
// @ts-expect-error: the bundle has no types; it starts the server when loaded.
await import('../dist/main.js');
