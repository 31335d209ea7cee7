import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FIXTURES, problemFixture } from './helpers/fixtures.ts';
import { json, startApp, tempDir, TEST_ENV } from './helpers/http.ts';
import { listeningUrl, ROOT, startServer } from './helpers/spawn.ts';

// The compiled server validates with code ajv generated at build time; the sources compile
// the same schemas at boot. Both must refuse exactly the same things with the same words.
await promisify(execFile)(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT });

/** The refusal of a data directory by the compiled server (or `script`, a source entry): what it prints, the banner line aside. */
async function refusalOf(script: string | undefined, dir: string, defaultLanguage = 'en-US'): Promise<string> {
  const env = {
    ...TEST_ENV,
    LOG_LEVEL: 'warn',
    DATA_DIR: dir,
    DEFAULT_LANGUAGE: defaultLanguage,
    ACCOUNTS_FILE: join(await tempDir(), 'accounts.json'),
  };
  const run = startServer(env, script);
  // A catalog that is not refused would be served: stop it, and the assertion below says so.
  setTimeout(() => run.child.kill('SIGKILL'), 20_000).unref();
  const [code] = (await once(run.child, 'exit')) as [number | null];
  assert.is(code, 1, run.output());
  return run.output();
}

test('every broken catalog of the fixtures is refused by the compiled server with the lines the sources print', async () => {
  const names = await readdir(join(FIXTURES, 'problems'));
  assert.ok(names.length > 10);
  for (const name of names) {
    const { dir, options } = await problemFixture(name);
    const [built, sources] = await Promise.all([
      refusalOf(undefined, dir, options.defaultLanguage),
      refusalOf('src/main.ts', dir, options.defaultLanguage),
    ]);
    assert.is(built, sources, name);
  }
});

const BODIES: unknown[] = [
  {},
  { first_name: 'Ana', last_name: 'Lima', username: 'a b', email: 'ana@example.org', password: 'short' },
  {
    first_name: '',
    last_name: 'L'.repeat(51),
    username: 'ana',
    email: 'not an email',
    password: 'a long passphrase',
    role: 'ADMIN',
  },
  {
    first_name: 'Ana',
    last_name: 'Lima',
    username: 'ana',
    email: 'ana@example.org',
    password: 'a long passphrase',
    extra: 1,
  },
  {
    first_name: 'Ânã',
    last_name: 'Ł'.repeat(50),
    username: 'ana.l',
    email: 'ana@example.org',
    password: 'p'.repeat(200),
  },
];

test('registration bodies are judged alike by the compiled server and the sources', async () => {
  const sources = await startApp();
  const compiled = startServer({
    ...TEST_ENV,
    ACCOUNTS_FILE: join(await tempDir(), 'accounts.json'),
    LOG_LEVEL: 'info',
  });
  try {
    const url = await listeningUrl(compiled);
    for (const body of BODIES) {
      const ask = (base: string) =>
        fetch(`${base}/api/v1/auth/register`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
      const [a, b] = await Promise.all([ask(url), ask(sources.url)]);
      const [fromBuilt, fromSources] = await Promise.all([
        json<{ message?: string }>(a),
        json<{ message?: string }>(b),
      ]);
      assert.is(a.status, b.status, JSON.stringify(body));
      assert.is(fromBuilt.message, fromSources.message, JSON.stringify(body));
    }
  } finally {
    compiled.child.kill('SIGKILL');
    await sources.close();
  }
});

test.run();
