// npm run dev: the server with DATA_DIR watched, so edits to the catalog are checked and
// served without a restart (see CONTRIBUTING.md).
process.env.WATCH_DATA = 'true';
await import('../src/main.ts');
