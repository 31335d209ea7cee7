// npm run catalog -- changes | export [--dry-run] [--drop-stale]: the catalog writes kept in the
// overlay (beside the accounts: their file's folder, or their Redis), listed or folded into data/.
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { foldedCatalog } from '../src/catalog-writes/folded.ts';
import { accountOptions, overlayFile } from '../src/parts.ts';
import { historyLines, staleWritesReport } from '../src/catalog/edit/describe.ts';
import { planExport } from '../src/catalog/edit/export.ts';
import { readConfig } from '../src/config/env.ts';
import { createLogger } from '../src/config/logger.ts';
import { writeWholeFile } from '../src/lib/whole-file.ts';

const USAGE = `usage:
  npm run catalog -- changes                        every write kept in the overlay: who, when, which record, what changed
  npm run catalog -- export [--dry-run] [--drop-stale]
      folds the overlay into the files under DATA_DIR (canonical form), then empties it;
      --dry-run prints what would change and writes nothing; --drop-stale lets writes that
      no longer apply to data/ go (they are listed) instead of refusing the export`;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const { positionals, values } = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        'dry-run': { type: 'boolean' },
        'drop-stale': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return fail(`${(error as Error).message}\n${USAGE}`);
  }
})();
const command = positionals.length === 1 ? positionals[0] : undefined;
if (values.help || (command !== 'changes' && command !== 'export')) fail(USAGE);

const settings = readConfig();
if ('error' in settings) fail(settings.error);
const { config } = settings;
const dir = resolve(config.DATA_DIR);
const { store } = accountOptions(config);
const where = store.kind === 'file' ? overlayFile(config) : 'the shared Redis';
const { base, overlay, writes, last, replayed } = await foldedCatalog(
  dir,
  config.DEFAULT_LANGUAGE,
  store,
  overlayFile(config),
  createLogger({ level: 'warn', format: 'text' }),
).catch((error: Error) => fail(error.message));

try {
  if (command === 'changes') {
    console.log(writes.length ? historyLines(replayed).join('\n') : `no catalog writes kept in ${where}`);
  } else if (writes.length === 0) {
    console.log(`nothing to export: no catalog writes kept in ${where}`);
  } else {
    if (replayed.skipped.length && !values['drop-stale'])
      fail(`export refused: ${replayed.skipped.length} write(s) would be lost\n${staleWritesReport(replayed.skipped)}`);
    if (replayed.skipped.length)
      console.error(
        `--drop-stale: ${replayed.skipped.length} write(s) dropped\n${staleWritesReport(replayed.skipped)}`,
      );
    const plan = await planExport(dir, base, replayed.changes);
    console.log(plan.lines.join('\n'));
    if (values['dry-run']) {
      console.log(`dry run: ${plan.texts.size} file(s) in ${dir} would change; nothing written`);
    } else {
      for (const [file, text] of plan.texts) await writeWholeFile(join(dir, file), text);
      await overlay.fold(last);
      console.log(
        `${writes.length} write(s) folded into ${plan.texts.size} file(s) in ${dir}; the overlay in ${where} is empty. Review with git diff, commit, and restart the server on the new data`,
      );
    }
  }
} finally {
  overlay.close();
}
