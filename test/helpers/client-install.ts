import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';

const run = promisify(execFile);

/**
 * `npm install <url>` into a new empty project, as a user would, with no registry (port 9
 * refuses), a new empty cache, no retries and no user settings: anything but the tarball fails
 * the install. Returns the project's folder.
 *
 * @example
 * const dir = await installWithNoRegistry('http://127.0.0.1:3000/api/client.tgz');
 */
export async function installWithNoRegistry(url: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'client-install-'));
  const cache = await mkdtemp(join(tmpdir(), 'client-npm-cache-'));
  await writeFile(join(dir, 'package.json'), '{ "name": "uses-the-client", "private": true, "type": "module" }\n');
  await writeFile(join(dir, '.npmrc'), '');
  await run(
    'npm',
    ['install', url, '--registry', 'http://127.0.0.1:9', '--cache', cache, '--userconfig', join(dir, '.npmrc')],
    {
      cwd: dir,
      env: { ...process.env, npm_config_fetch_retries: '0', npm_config_audit: 'false', npm_config_fund: 'false' },
    },
  );
  return dir;
}

/** A user's compiler options, checking an installed package's declarations (skipLibCheck off: every shipped file). */
export const USER_OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2022.full.d.ts'],
  strict: true,
  skipLibCheck: false,
  types: [],
};
