import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, tempDir } from './helpers/http.ts';
import { ROOT } from './helpers/spawn.ts';

const run = promisify(execFile);

/** The document as the server serves it, in a file for the linters: with `SIMULATE`, whose document has everything the default one has and `_delay` and `_fail`. */
async function servedDocument(): Promise<string> {
  const server = await startApp({ SIMULATE: 'on' });
  try {
    const file = join(await tempDir(), 'openapi.json');
    await writeFile(file, await (await server.get('/api/openapi.json')).text());
    return file;
  } finally {
    await server.close();
  }
}

const file = await servedDocument();
// Offline: no telemetry, no update check.
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

/** A linter's findings: its output when it fails (execFile rejects on a non-zero exit). */
async function findings(args: string[]): Promise<string> {
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd: ROOT, env, maxBuffer: 16 * 2 ** 20 });
    return `${stdout}\n${stderr}`;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${args[0]} failed:\n${stdout}\n${stderr}`.slice(0, 8000));
  }
}

test('Redocly (recommended rules, redocly.yaml) finds no error and no warning in the served document', async () => {
  const output = await findings([
    'node_modules/@redocly/cli/bin/cli.js',
    'lint',
    file,
    '--config',
    'redocly.yaml',
    '--max-problems',
    '1000',
  ]);
  // The summary line: with warnings it would say how many instead.
  assert.match(output, /Woohoo! Your API description is valid/, output);
  assert.not.match(output, /You have \d+ warnings?/, output);
});

test('Spectral (spectral:oas, .spectral.yaml) finds nothing at all in the served document', async () => {
  const output = await findings([
    'node_modules/@stoplight/spectral-cli/dist/index.js',
    'lint',
    file,
    '--ruleset',
    '.spectral.yaml',
    '--fail-severity',
    'hint',
  ]);
  assert.match(output, /No results with a severity of 'hint' or higher found/, output);
});

test.run();
