// npm run new -- <family> [--field value ...]: adds a record to DATA_DIR (or --data DIR) with a
// fresh uuid, its href, timestamps, the given fields, its translation rows (the default
// language's, and another language's only when one of its fields is given) and the links back.
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { readConfig } from '../src/config/env.ts';
import { newRecord } from './lib/new-record.ts';

const USAGE = `usage: npm run new -- <family> [--data DIR] [--<field> <value> ...] [--<field>.<language> <value> ...]
  npm run new -- episodes --season 3 --duration 2700000 --title "The Last Tide"
  npm run new -- locations --name "Old Cannery" --name.pt-BR "Antiga Fábrica de Conservas"
Lists are comma-separated; relations take an href, a uuid, or a season's (episode's) number.
Translated fields go to the default language's row; --<field>.<language> writes that language's row.`;

const settings = readConfig();
if ('error' in settings) {
  console.error(settings.error);
  process.exit(1);
}
const { tokens } = parseArgs({ allowPositionals: true, strict: false, tokens: true });
const options: Record<string, string> = {};
const positionals: string[] = [];
let dir = settings.config.DATA_DIR;
for (let i = 0; i < tokens.length; i++) {
  const token = tokens[i]!;
  if (token.kind === 'positional') positionals.push(token.value);
  if (token.kind !== 'option') continue;
  const value =
    token.value ??
    (tokens[i + 1]?.kind === 'positional' ? String((tokens[++i] as { value: string }).value) : undefined);
  if (token.name === 'help') {
    console.log(USAGE);
    process.exit(0);
  }
  if (value === undefined) {
    console.error(`--${token.name} needs a value\n${USAGE}`);
    process.exit(1);
  }
  if (token.name === 'data') dir = resolve(value);
  else options[token.name] = value;
}
if (positionals.length !== 1) {
  console.error(USAGE);
  process.exit(1);
}
try {
  const made = await newRecord(dir, positionals[0]!, options, settings.config.DEFAULT_LANGUAGE);
  console.log(`added ${made.href}\nwrote ${made.files.join(', ')}`);
  if (made.todo.length) console.log(`left for you (npm run check-data names them):\n  ${made.todo.join('\n  ')}`);
  if (made.note) console.log(made.note);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
