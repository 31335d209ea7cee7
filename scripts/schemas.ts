// npm run schemas: writes the JSON Schema of every data file to data/schemas/ and maps them in
// .vscode/settings.json, so editors validate and complete the data as it is typed.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { editorSettings, SCHEMA_DIR, schemaFiles } from './lib/schema-files.ts';

const root = new URL('..', import.meta.url).pathname;
await mkdir(join(root, SCHEMA_DIR), { recursive: true });
for (const [name, text] of schemaFiles()) await writeFile(join(root, SCHEMA_DIR, name), text);
await mkdir(join(root, '.vscode'), { recursive: true });
await writeFile(join(root, '.vscode', 'settings.json'), editorSettings());
console.log(`wrote ${schemaFiles().size} schemas to ${SCHEMA_DIR}/ and .vscode/settings.json`);
