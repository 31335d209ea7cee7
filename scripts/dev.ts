// npm run dev: the server with DATA_DIR watched, so edits to the catalog are checked and
// served without a restart (see CONTRIBUTING.md).
//
// package.json runs it as `exec node --import tsx scripts/dev.ts`, like `npm start`'s
// `exec node …`: npm runs a script through `sh -c` and passes SIGTERM or SIGINT to that one
// child only. Without `exec`, sh (dash) forks the command, dies of the signal itself and leaves
// everything below it running; the tsx command would add a process that SIGKILLs a server busy
// for more than 30 ms. With both gone, npm's child is this process, whose stopOnSignals stops
// gracefully.
process.env.WATCH_DATA = 'true';
await import('../src/main.ts');
