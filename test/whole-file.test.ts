import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { removeLeftovers, writeWholeFile, type WriteSome } from '../src/lib/whole-file.ts';
import { tempDir } from './helpers/http.ts';

/** A write that takes at most `most` bytes a call, as write(2) does on a filling disk; `fail` after `budget` bytes in all. */
function stingy(most: number, budget = Infinity): WriteSome & { calls: number } {
  let left = budget;
  const write = Object.assign(
    async (handle: Parameters<WriteSome>[0], buffer: Uint8Array, offset: number, length: number) => {
      write.calls++;
      if (left <= 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      const { bytesWritten } = await handle.write(buffer, offset, Math.min(length, most, left));
      left -= bytesWritten;
      return bytesWritten;
    },
    { calls: 0 },
  );
  return write;
}

test('a writer that takes a few bytes a call still writes every byte', async () => {
  const file = join(await tempDir(), 'data.json');
  const text = JSON.stringify({ rows: Array.from({ length: 500 }, (_, n) => `row ${n}`) });
  const write = stingy(7);
  await writeWholeFile(file, text, { writeSome: write });
  assert.is(await readFile(file, 'utf8'), text);
  assert.ok(write.calls >= text.length / 7, `${write.calls} calls`);
});

test('a disk that fills halfway leaves the old file whole, no temporary file, and the error', async () => {
  const dir = await tempDir();
  const file = join(dir, 'data.json');
  await writeFile(file, '{"old":true}\n');
  const error = await writeWholeFile(file, 'x'.repeat(10_000), { writeSome: stingy(1000, 4_000) }).catch(
    (e: NodeJS.ErrnoException) => e,
  );
  assert.is((error as NodeJS.ErrnoException).code, 'ENOSPC');
  assert.is(await readFile(file, 'utf8'), '{"old":true}\n');
  assert.equal(await readdir(dir), ['data.json']);
});

test('a write that makes no progress is ENOSPC, not an endless loop', async () => {
  const dir = await tempDir();
  const error = await writeWholeFile(join(dir, 'f'), 'abc', { writeSome: async () => 0 }).catch(
    (e: NodeJS.ErrnoException) => e,
  );
  assert.is((error as NodeJS.ErrnoException).code, 'ENOSPC');
  assert.equal(await readdir(dir), []);
});

test('keepPrevious keeps the replaced version; exclusive never replaces; mode is applied', async () => {
  const dir = await tempDir();
  const file = join(dir, 'accounts.json');
  await writeWholeFile(file, 'one', { mode: 0o600, keepPrevious: true });
  await writeWholeFile(file, 'two', { mode: 0o600, keepPrevious: true });
  assert.is(await readFile(file, 'utf8'), 'two');
  assert.is(await readFile(`${file}.previous`, 'utf8'), 'one');
  assert.is((await stat(file)).mode & 0o777, 0o600);
  const secret = join(dir, 'secret');
  await writeWholeFile(secret, 'first', { exclusive: true });
  const error = await writeWholeFile(secret, 'second', { exclusive: true }).catch((e: NodeJS.ErrnoException) => e);
  assert.is((error as NodeJS.ErrnoException).code, 'EEXIST');
  assert.is(await readFile(secret, 'utf8'), 'first');
  assert.equal((await readdir(dir)).sort(), ['accounts.json', 'accounts.json.previous', 'secret']);
});

test('leftovers of an interrupted write are found and removed, nothing else', async () => {
  const dir = await tempDir();
  await mkdir(join(dir, 'keep'));
  for (const name of [
    'accounts.json',
    'accounts.json.0123456789ab.tmp',
    'accounts.json.0123456789ab.tmp.previous',
    'other.json.0123456789ab.tmp',
    'accounts.json.previous',
  ])
    await writeFile(join(dir, name), '');
  assert.equal((await removeLeftovers(join(dir, 'accounts.json'))).sort(), [
    'accounts.json.0123456789ab.tmp',
    'accounts.json.0123456789ab.tmp.previous',
  ]);
  assert.equal((await readdir(dir)).sort(), [
    'accounts.json',
    'accounts.json.previous',
    'keep',
    'other.json.0123456789ab.tmp',
  ]);
});

test.run();
