// npm run check-data -- [DIR] [--strict]: validates a data directory the way the server does
// at boot. --strict (for a fork's CI) also refuses warnings and files not in canonical form.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { uncanonicalFiles } from '../src/catalog/canonical.ts';
import { checkData } from '../src/catalog/check.ts';
import { readConfig } from '../src/config/env.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { strict: { type: 'boolean', default: false } },
});
const settings = readConfig();
if ('error' in settings) {
  console.error(settings.error);
  process.exit(1);
}
const dir = resolve(positionals[0] ?? settings.config.DATA_DIR);
const strict = values.strict!;
const { ok, lines } = await checkData(dir, settings.config.DEFAULT_LANGUAGE, {
  strict,
  extra: strict ? await uncanonicalFiles(dir) : [],
});
(ok ? console.log : console.error)(lines.join('\n'));
process.exitCode = ok ? 0 : 1;
