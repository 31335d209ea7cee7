import { ChangeFeed } from '../src/changes/feed.ts';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LogFileOverlayStore } from '../src/catalog-writes/file-store.ts';
import { OverlayNotSaved, type OverlayWrite, type SandboxStore } from '../src/catalog-writes/store.ts';
import type { Catalog } from '../src/catalog/catalog.ts';
import { loadCatalog } from '../src/catalog/load.ts';
import type { Draft } from '../src/catalog/edit/draft.ts';
import { createRecord, patchRecord } from '../src/catalog/edit/operations.ts';
import { createLogger } from '../src/config/logger.ts';
import { HttpError } from '../src/lib/http-error.ts';
import { Sandboxes } from '../src/served/sandboxes.ts';
import { ServedCatalog } from '../src/served/served-catalog.ts';
import { tempDir } from './helpers/http.ts';
import { readOverlayFile } from './helpers/overlay-file.ts';
import { smallDisk } from './helpers/small-disk.ts';
import { ROOT } from './helpers/spawn.ts';

// Group commit of sandbox writes, in process: writes of several accounts that arrive while a
// batch is being kept are appended together (one flush), each staged and gated on its own
// account's catalog, answered only once durable, all failed when the append fails.
const loaded = await loadCatalog(join(ROOT, 'data'), { defaultLanguage: 'en-US' });
if (!loaded.ok) throw new Error(`catalog refused: ${loaded.problems[0]?.message}`);
const log = createLogger({ level: 'silent', format: 'text' });
const BOUNDS = { writes: 3, bytes: 64 * 2 ** 20, idleMs: 3_600_000 };

/** The locations of `catalog` named `Pier…`: those the tests write. */
const piers = (catalog: Catalog) => {
  const store = catalog.store('locations');
  return store.records.flatMap((record, at) => {
    const name = store.translation(at, 'en-US').fields.name as string;
    return name.startsWith('Pier') ? [{ uuid: record.uuid as string, name }] : [];
  });
};

/** A file store that records each append's size, and fails the next `failures` appends as a full disk would. */
class Recording implements SandboxStore {
  readonly batches: number[] = [];
  failures = 0;
  constructor(readonly inner: LogFileOverlayStore) {}
  since = (seq: number) => this.inner.since(seq);
  end = () => this.inner.end();
  mark = () => this.inner.mark();
  drop = (leave: (write: OverlayWrite) => boolean) => this.inner.drop(leave);
  onChange = () => {};
  close = () => {};
  async appendAll(writes: Omit<OverlayWrite, 'seq'>[], after: number) {
    this.batches.push(writes.length);
    if (this.failures-- > 0) throw new OverlayNotSaved(this.inner.file, 'ENOSPC');
    return this.inner.appendAll(writes, after);
  }
}

async function classroom(file?: string, bounds = BOUNDS) {
  const served = new ServedCatalog(loaded.ok ? loaded.catalog : undefined, 2 ** 20);
  const store = new Recording(await LogFileOverlayStore.open(file ?? join(await tempDir(), 'sandboxes.json')));
  const sandboxes = await Sandboxes.open(served, store, bounds, log, new ChangeFeed());
  const write = (username: string, stage: (draft: Draft) => ReturnType<typeof createRecord>) =>
    sandboxes.write({ caller: { uuid: `uuid-${username}`, username, role: 'BASIC' }, request: 'POST', stage });
  const create = (username: string, name = `Pier of ${username}`) =>
    write(username, (draft) => createRecord(draft, 'locations', { name }));
  const names = (username: string) =>
    piers(sandboxes.viewOf(`uuid-${username}`)?.catalog ?? served.shared.catalog).map((pier) => pier.name);
  return { sandboxes, store, write, create, names };
}

/** Where a promise ends: its value, or the status of the HttpError it is refused with. */
const settled = <T>(promise: Promise<T>) =>
  promise.then(
    () => 'kept',
    (error: unknown) => (error instanceof HttpError ? error.status : String(error)),
  );

test('writes of several accounts arriving during a flush are appended together, each seeing only its own', async () => {
  const { sandboxes, store, create, names } = await classroom();
  try {
    const first = create('ana');
    // Once its batch is being kept: the others wait for the next.
    await new Promise(setImmediate);
    const rest = ['bia', 'caio', 'dora', 'eli'].map((username) => create(username));
    await Promise.all([first, ...rest]);
    assert.equal(store.batches, [1, 4], 'the first alone, the four that came meanwhile in one append');
    assert.equal(
      (await store.since(0)).map((write) => [write.seq, write.account.username]),
      [
        [1, 'ana'],
        [2, 'bia'],
        [3, 'caio'],
        [4, 'dora'],
        [5, 'eli'],
      ],
    );
    for (const username of ['ana', 'bia', 'caio', 'dora', 'eli'])
      assert.equal(names(username), [`Pier of ${username}`], `${username} reads its own write alone`);
    assert.ok(sandboxes.viewOf('uuid-eli')!.catalog.version.endsWith('~5'), "a view's version names its last write");
  } finally {
    sandboxes.close();
  }
});

test('a failed append fails every write of its batch, keeps nothing, and the next writes are kept', async () => {
  const { sandboxes, store, create, names } = await classroom();
  try {
    await create('ana');
    store.failures = 1;
    // All three arrive before their batch starts: one append for them.
    const batch = ['bia', 'caio', 'ana'].map((username) => settled(create(username, `Pier lost by ${username}`)));
    assert.equal(await Promise.all(batch), [503, 503, 503]);
    assert.equal(store.batches, [1, 3]);
    assert.equal(
      (await store.since(0)).map((write) => write.seq),
      [1],
      'nothing of the batch in the store',
    );
    assert.is((await readFile(store.inner.file, 'utf8')).split('\n').length, 3, 'the header and one line');
    assert.not.ok(sandboxes.holds('uuid-bia'));
    assert.equal(names('ana'), ['Pier of ana'], "ana's sandbox as it was");
    assert.equal(names('caio'), [], 'caio reads the shared catalog');
    assert.equal(await Promise.all(['bia', 'caio'].map((username) => settled(create(username)))), ['kept', 'kept']);
    assert.equal(
      (await store.since(0)).map((write) => [write.seq, write.account.username]),
      [
        [1, 'ana'],
        [2, 'bia'],
        [3, 'caio'],
      ],
    );
  } finally {
    sandboxes.close();
  }
});

test("one account's writes in one batch stage in order, each on the one before; a refused one is answered alone", async () => {
  const { sandboxes, store, write, create, names } = await classroom();
  const rename = (from: string, to: string) => (draft: Draft) => {
    const found = piers(draft.catalog).find((pier) => pier.name === from);
    if (!found) throw new HttpError(404, `no location named ${from}`);
    return patchRecord(draft, 'locations', found.uuid, { name: to });
  };
  try {
    const first = create('bia');
    await new Promise(setImmediate);
    const batch = [
      create('ana', 'Pier A'),
      write('ana', rename('Pier A', 'Pier B')),
      create('bia', 'Pier of bia, again'),
      write('ana', rename('Pier B', 'Pier C')),
      write('ana', rename('Pier Z', 'Pier Y')),
      // The gate refuses it (a location needs a name): the others of the batch are kept.
      write('ana', (draft) => createRecord(draft, 'locations', { description: 'nameless' })),
    ].map(settled);
    await first;
    assert.equal(await Promise.all(batch), ['kept', 'kept', 'kept', 'kept', 404, 400]);
    assert.equal(store.batches, [1, 4]);
    assert.equal(names('ana'), ['Pier C'], 'the renames applied on top of the creation, in order');
    assert.equal(names('bia'), ['Pier of bia', 'Pier of bia, again']);
    assert.equal(sandboxes.changes('uuid-ana').writes, 3);
    // SANDBOX_WRITES counts the batch's writes too: ana holds 3, the most allowed.
    assert.equal(await Promise.all([settled(create('ana', 'Pier D')), settled(create('caio'))]), [409, 'kept']);
  } finally {
    sandboxes.close();
  }
});

test('SANDBOX_MB counts the sandboxes a batch makes before its later writes: the one past it is refused alone', async () => {
  // Room for two sandboxes (256 KB of response cache each, and their writes), not three.
  const { sandboxes, store, create } = await classroom(undefined, { ...BOUNDS, bytes: 600 * 1024 });
  try {
    const answers = await Promise.all(['ana', 'bia', 'caio', 'ana'].map((username) => settled(create(username))));
    assert.equal(answers, ['kept', 'kept', 409, 'kept']);
    assert.equal(store.batches, [3]);
    assert.not.ok(sandboxes.holds('uuid-caio'));
  } finally {
    sandboxes.close();
  }
});

test('a batch behind writes another process appended is staged again and numbered after them', async () => {
  const file = join(await tempDir(), 'sandboxes.json');
  const a = await classroom(file);
  const b = await classroom(file);
  try {
    await a.create('ana');
    const batch = ['bia', 'caio'].map((username) => b.create(username));
    await Promise.all(batch);
    assert.equal(b.store.batches, [2, 2], 'behind once, then kept');
    assert.equal(
      (await b.store.since(0)).map((write) => [write.seq, write.account.username]),
      [
        [1, 'ana'],
        [2, 'bia'],
        [3, 'caio'],
      ],
    );
    assert.equal(b.names('ana'), ['Pier of ana'], "b read ana's write on the way");
  } finally {
    a.sandboxes.close();
    b.sandboxes.close();
  }
});

test('a full disk: each batch is kept whole or refused whole (503), the file holding exactly the writes acknowledged', async () => {
  const { dir, unmount } = await smallDisk('128k');
  try {
    const ballast = join(dir, 'ballast');
    await writeFile(ballast, Buffer.alloc(64 * 1024));
    const { sandboxes, store, create } = await classroom(join(dir, 'sandboxes.json'));
    const acknowledged: string[] = [];
    const outcomes = new Set<string>();
    try {
      for (let round = 0; round < 200 && !outcomes.has('503'); round++) {
        // Four new students a round: SANDBOX_WRITES never refuses one.
        const students = ['ana', 'bia', 'caio', 'dora'].map((username) => `${username}${round}`);
        const names = students.map((username) => `Pier of ${username}`.padEnd(400, '.'));
        const answers = await Promise.all(students.map((username, at) => settled(create(username, names[at]))));
        outcomes.add(answers.join());
        answers.forEach((answer, at) => answer === 'kept' && acknowledged.push(names[at]!));
        const kept = await readOverlayFile<{ changes: { after: { name?: string } }[] }>(store.inner.file);
        assert.equal(
          kept.writes.map((write) => write.changes.find((change) => change.after?.name)?.after.name),
          acknowledged,
        );
      }
      assert.equal([...outcomes].sort(), ['503,503,503,503', 'kept,kept,kept,kept'], 'all or nothing, never a mix');
      await rm(ballast);
      assert.is(await settled(create('eli')), 'kept', 'writes resume once space returns');
    } finally {
      sandboxes.close();
    }
  } finally {
    await unmount();
  }
});

test.run();
