import { appendFile, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LogFileOverlayStore } from '../src/catalog-writes/file-store.ts';
import type { OverlayWrite } from '../src/catalog-writes/store.ts';
import { tempDir } from './helpers/http.ts';
import { readOverlayFile, seqOf } from './helpers/overlay-file.ts';

const test = suite('the catalog overlay file: a log of one write a line');

/** A write as the curator hands it to the store: one changed location. */
const writeOf = (n: number): Omit<OverlayWrite, 'seq'> => ({
  at: `2026-01-01T00:00:0${n % 10}.000Z`,
  account: { uuid: '6f1c0a52-7c1e-4a0b-9d64-0d7a1b2c3d4e', username: 'curator' },
  request: `PATCH /api/v1/locations/${n}`,
  changes: [
    { family: 'locations', uuid: `uuid-${n}`, before: null, after: { name: `Location ${n}`.padEnd(200, '.') } },
  ],
});

/** A store on a fresh file holding `count` writes, with the warnings it gave. */
async function storeWith(count: number): Promise<{ file: string; warnings: string[]; store: LogFileOverlayStore }> {
  const file = join(await tempDir(), 'catalog-overlay.json');
  const warnings: string[] = [];
  const store = await LogFileOverlayStore.open(file, (line) => void warnings.push(line));
  for (let n = 1; n <= count; n++) {
    const before = await store.mark();
    const appended = await store.append(writeOf(n), n - 1);
    assert.equal(seqOf(appended), { seq: n });
    assert.equal('mark' in appended && appended.mark, { before, after: await store.mark() }, 'the marks around it');
  }
  return { file, warnings, store };
}

async function reopen(file: string): Promise<{ warnings: string[]; store: LogFileOverlayStore }> {
  const warnings: string[] = [];
  return { warnings, store: await LogFileOverlayStore.open(file, (line) => void warnings.push(line)) };
}

test('each write is one line appended to the file, the lines before it untouched; no .previous until a rewrite', async () => {
  const { file, store } = await storeWith(1);
  const first = await readFile(file, 'utf8');
  await store.append(writeOf(2), 1);
  const second = await readFile(file, 'utf8');
  assert.ok(second.startsWith(first), 'appended after what was there');
  assert.is(second.slice(first.length), `${JSON.stringify({ ...writeOf(2), seq: 2 })}\n`);
  assert.is(
    await stat(`${file}.previous`).then(
      () => 'kept',
      () => 'none',
    ),
    'none',
  );
  assert.equal(
    (await readOverlayFile(file)).writes.map((w) => w.seq),
    [1, 2],
  );
  assert.equal(
    await store.append(writeOf(9), 1),
    { behind: [{ ...writeOf(2), seq: 2 }] },
    'a writer that missed write 2 is told',
  );
});

test('appendAll appends several writes as lines numbered in turn, in one step; behind as append is', async () => {
  const { file, store } = await storeWith(1);
  const first = await readFile(file, 'utf8');
  assert.equal(seqOf(await store.appendAll([writeOf(2), writeOf(3)], 1)), { seq: 3 });
  const lines = [2, 3].map((n) => `${JSON.stringify({ ...writeOf(n), seq: n })}\n`);
  assert.is(await readFile(file, 'utf8'), first + lines.join(''));
  assert.equal(
    seqOf(await store.appendAll([writeOf(4), writeOf(5)], 2)),
    { behind: [{ ...writeOf(3), seq: 3 }] },
    'nothing appended',
  );
  assert.equal(
    (await readOverlayFile(file)).writes.map((w) => w.seq),
    [1, 2, 3],
  );
});

test('a torn last line (an append cut short) is left out at open with a warning naming it; the next write rewrites the file without it', async () => {
  const { file } = await storeWith(2);
  await appendFile(file, JSON.stringify({ ...writeOf(3), seq: 3 }).slice(0, 57));
  const torn = await readFile(file, 'utf8');
  const { store, warnings } = await reopen(file);
  assert.is(await store.end(), 2);
  assert.equal(warnings, [
    `${file}: line 4 (57 bytes) is an append that never completed, so never acknowledged: left out; the next write rewrites the file without it`,
  ]);
  assert.is(await readFile(file, 'utf8'), torn, 'opening changes nothing');
  assert.equal(seqOf(await store.append(writeOf(3), 2)), { seq: 3 });
  assert.equal(
    (await readOverlayFile(file)).writes.map((w) => w.seq),
    [1, 2, 3],
  );
  assert.is(await readFile(`${file}.previous`, 'utf8'), torn);
});

test('a last line of bytes that are not JSON (zeros a crash left) is torn too; the same line anywhere else refuses the file', async () => {
  const { file } = await storeWith(2);
  await appendFile(file, '\0\0\0\0\n');
  assert.is(await (await reopen(file)).store.end(), 2);
  const lines = (await readFile(file, 'utf8')).split('\n');
  lines[2] = '\0\0\0\0';
  await writeFile(file, lines.join('\n'));
  const refused = await reopen(file).then(
    () => undefined,
    (error: Error) => error.message,
  );
  assert.match(String(refused), `${file}: line 3 is not JSON (`);
});

test('a last line of text that is not JSON, with its newline, is an edit, not a torn append: the file is refused naming it', async () => {
  const { file } = await storeWith(2);
  await appendFile(file, '{"seq": 3, "broken\n');
  const broken = await readFile(file, 'utf8');
  const refused = await reopen(file).then(
    () => undefined,
    (error: Error) => error.message,
  );
  assert.match(String(refused), `${file}: line 4 is not JSON (`);
  assert.is(await readFile(file, 'utf8'), broken, 'the file is left as it is');
});

test('a line that is not a write, or not numbered after the one before, refuses the file naming it and the line; the file is untouched', async () => {
  const { file } = await storeWith(3);
  const lines = (await readFile(file, 'utf8')).split('\n');
  for (const [line, problem] of [
    [
      JSON.stringify({ seq: 2, at: 'now' }),
      "line 3 is not a catalog write (top level: must have required property 'account')",
    ],
    [JSON.stringify({ ...writeOf(2), seq: 7 }), 'line 4 is write 3, not after 7'],
  ] as const) {
    const broken = [...lines.slice(0, 2), line, ...lines.slice(3)].join('\n');
    await writeFile(file, broken);
    const refused = await reopen(file).then(
      () => undefined,
      (error: Error) => error.message,
    );
    assert.match(
      String(refused),
      `${file}: ${problem}; repair or remove that line, or move the file away to start with no changes`,
    );
    assert.is(await readFile(file, 'utf8'), broken);
  }
});

test('the former format (one JSON document) is read as it is, and rewritten as a log by the first write, the old file kept as .previous', async () => {
  const file = join(await tempDir(), 'catalog-overlay.json');
  const old = `${JSON.stringify({ writes: [3, 4].map((seq) => ({ ...writeOf(seq), seq })), exported: 2 }, null, 2)}\n`;
  await writeFile(file, old, { mode: 0o600 });
  const { store, warnings } = await reopen(file);
  assert.equal(
    (await store.since(0)).map((w) => w.seq),
    [3, 4],
  );
  assert.is(await store.end(), 4);
  assert.match(
    warnings.join('\n'),
    'is in the former format (one JSON document): read as it is; the next write rewrites it as a log',
  );
  assert.is(await readFile(file, 'utf8'), old, 'opening changes nothing');
  assert.equal(seqOf(await store.append(writeOf(5), 4)), { seq: 5 });
  assert.equal(await readOverlayFile(file), {
    writes: [3, 4, 5].map((seq) => ({ ...writeOf(seq), seq })),
    exported: 2,
  });
  assert.is(await readFile(`${file}.previous`, 'utf8'), old);
  assert.equal(
    (await (await reopen(file)).store.since(0)).map((w) => w.seq),
    [3, 4, 5],
  );
});

test('fold (export) rewrites the file with the later writes only; numbering goes on; another process sees it at its next change', async () => {
  const { file, store } = await storeWith(3);
  const { store: exporter } = await reopen(file);
  await exporter.fold(2);
  assert.equal(await readOverlayFile(file), { writes: [{ ...writeOf(3), seq: 3 }], exported: 2 });
  assert.equal(seqOf(await store.append(writeOf(4), 3)), { seq: 4 }, 'the server appends after the fold');
  assert.equal(
    (await readOverlayFile(file)).writes.map((w) => w.seq),
    [3, 4],
  );
  await exporter.fold(4);
  assert.equal(await readOverlayFile(file), { writes: [], exported: 4 });
  assert.equal(seqOf(await store.append(writeOf(5), 4)), { seq: 5 });
  assert.equal(await (await reopen(file)).store.end(), 5);
});

test('a drop forgets the writes it is given; numbering goes on after the last write taken, even a dropped one before which writes are kept', async () => {
  const { file, store } = await storeWith(3);
  await store.drop((write) => write.seq >= 2);
  assert.equal(await store.end(), 3);
  assert.equal(
    (await store.since(0)).map((w) => w.seq),
    [1],
  );
  const { store: reopened } = await reopen(file);
  assert.equal(await reopened.end(), 3, 'the file says it, for another process');
  assert.equal(seqOf(await reopened.append(writeOf(4), 3)), { seq: 4 });
  assert.equal(await store.append(writeOf(5), 3), { behind: [{ ...writeOf(4), seq: 4 }] });
  await store.drop(() => true);
  assert.equal(await readOverlayFile(file), { writes: [], exported: 0 });
  assert.equal(await (await reopen(file)).store.end(), 4);
});

test.run();
