// npm run check-data -- [DIR]: validates a data directory the way the server does at boot.
import { checkData } from '../src/catalog/check.ts';
import { readConfig } from '../src/config/env.ts';

const settings = readConfig();
if ('error' in settings) {
  console.error(settings.error);
  process.exit(1);
}
const dir = process.argv[2] ?? settings.config.DATA_DIR;
const { ok, lines } = await checkData(dir, settings.config.DEFAULT_LANGUAGE);
(ok ? console.log : console.error)(lines.join('\n'));
process.exitCode = ok ? 0 : 1;
