// npm run client: writes the typed TypeScript client's generated types
// (clients/typescript/src/openapi.ts) from the OpenAPI document the sources build, and its
// package.json's version (the server's). No server is needed. `npm run build` then packs the
// client that GET /api/client.tgz serves (docs/clients.md).
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { CLIENT_MANIFEST, GENERATED_FILE, generatedSource, manifestWithVersion } from './lib/client-source.ts';

const started = performance.now();
for (const [file, text] of [
  [GENERATED_FILE, await generatedSource()],
  [CLIENT_MANIFEST, manifestWithVersion()],
] as const) {
  const before = readFileSync(file, 'utf8');
  writeFileSync(file, text);
  console.log(`${relative(process.cwd(), file)}: ${before === text ? 'unchanged' : 'written'}`);
}
console.log(`done in ${Math.round(performance.now() - started)} ms`);
