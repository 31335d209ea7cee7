import { existsSync, mkdirSync, rmdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { underLock } from '../src/lib/file-lock.ts';
import { HttpError } from '../src/lib/http-error.ts';
import { tempDir } from './helpers/http.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** `change` under the lock of `file`, with no warning expected. */
const locked = <T>(file: string, change: () => Promise<T>) => underLock(file, () => {}, change);

test('two changes of one file run one after the other, and the lock is gone after each', async () => {
  const file = join(await tempDir(), 'store.json');
  const steps: string[] = [];
  const change = (name: string) => async () => {
    steps.push(`${name} starts`);
    assert.ok(existsSync(`${file}.lock`), `${name} runs without the lock directory`);
    await pause(120);
    steps.push(`${name} ends`);
  };
  await Promise.all([locked(file, change('first')), locked(file, change('second'))]);
  assert.equal(steps, ['first starts', 'first ends', 'second starts', 'second ends']);
  assert.not.ok(existsSync(`${file}.lock`));
});

test('a change that throws gives the lock back and its error to the caller', async () => {
  const file = join(await tempDir(), 'store.json');
  const error = await locked(file, async () => {
    throw new Error('the change failed');
  }).catch((e: Error) => e);
  assert.is((error as Error).message, 'the change failed');
  assert.not.ok(existsSync(`${file}.lock`));
  assert.is(await locked(file, async () => 'taken again'), 'taken again');
});

test('a lock another process holds is waited for, then taken', async () => {
  const file = join(await tempDir(), 'store.json');
  mkdirSync(`${file}.lock`);
  let released = 0;
  setTimeout(() => {
    released = Date.now();
    rmdirSync(`${file}.lock`);
  }, 300);
  const ran = await locked(file, async () => Date.now());
  assert.ok(released > 0 && ran >= released, 'the change ran while the other process held the lock');
});

test('a lock left by a killed process (older than 5 s) is taken over at once', async () => {
  const file = join(await tempDir(), 'store.json');
  mkdirSync(`${file}.lock`);
  const old = new Date(Date.now() - 60_000);
  utimesSync(`${file}.lock`, old, old);
  const started = Date.now();
  assert.is(await locked(file, async () => 'taken'), 'taken');
  assert.ok(Date.now() - started < 2_000, `${Date.now() - started} ms`);
  assert.not.ok(existsSync(`${file}.lock`));
});

test('a lock that cannot be made (its folder removed) is a 503 naming the file at once, not retried', async () => {
  const file = join(await tempDir(), 'gone', 'store.json');
  let ran = false;
  const error = (await locked(file, async () => (ran = true)).catch((e: unknown) => e)) as HttpError;
  assert.instance(error, HttpError);
  assert.is(error.status, 503);
  assert.is(error.message, `${file}: cannot be locked (ENOENT: its folder is missing)`);
  assert.not.ok(ran, 'the change ran without the lock');
});

test.run();
