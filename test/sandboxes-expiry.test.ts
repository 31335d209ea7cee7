import { ChangeFeed } from '../src/changes/feed.ts';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LogFileOverlayStore } from '../src/catalog-writes/file-store.ts';
import { loadCatalog } from '../src/catalog/load.ts';
import { createRecord } from '../src/catalog/edit/operations.ts';
import { createLogger } from '../src/config/logger.ts';
import { Sandboxes } from '../src/served/sandboxes.ts';
import { ServedCatalog } from '../src/served/served-catalog.ts';
import { tempDir } from './helpers/http.ts';
import { ROOT } from './helpers/spawn.ts';

// Idle expiry (SANDBOX_TTL) on a clock the test moves: the sandboxes' own objects, in process;
// test/sandboxes.test.ts checks the same through the compiled server with a 1-second TTL.
const loaded = await loadCatalog(join(ROOT, 'data'), { defaultLanguage: 'en-US' });
if (!loaded.ok) throw new Error(`catalog refused: ${loaded.problems[0]?.message}`);
const log = createLogger({ level: 'silent', format: 'text' });
const HOUR = 3_600_000;

async function classroom(clock: { now: number }) {
  const served = new ServedCatalog(loaded.ok ? loaded.catalog : undefined, 2 ** 20);
  const store = await LogFileOverlayStore.open(join(await tempDir(), 'sandboxes.json'));
  const bounds = { writes: 10, bytes: 64 * 2 ** 20, idleMs: 2 * HOUR };
  const sandboxes = await Sandboxes.open(served, store, bounds, log, new ChangeFeed(), () => clock.now);
  const write = (username: string) =>
    sandboxes.write({
      caller: { uuid: `uuid-${username}`, username, role: 'BASIC' },
      request: 'POST /api/v1/locations',
      stage: (draft) => createRecord(draft, 'locations', { name: `Pier of ${username}` }),
    });
  return { sandboxes, write };
}

test('a sandbox is dropped once unused for longer than SANDBOX_TTL, not before; a read is a use', async () => {
  const clock = { now: Date.parse('2026-03-02T08:00:00Z') };
  const { sandboxes, write } = await classroom(clock);
  try {
    await write('ana');
    await write('bia');
    clock.now += 2 * HOUR - 1;
    assert.ok(sandboxes.viewOf('uuid-bia'), "bia's sandbox is there: read");
    clock.now += 1;
    await sandboxes.sync();
    assert.ok(sandboxes.holds('uuid-ana'), 'unused for exactly the TTL: kept');
    clock.now += 1;
    await sandboxes.sync();
    assert.not.ok(sandboxes.holds('uuid-ana'), 'unused for longer than the TTL: dropped');
    assert.ok(sandboxes.holds('uuid-bia'), 'read 2 ms ago, not unused for the TTL');
    clock.now += 2 * HOUR;
    await sandboxes.sync();
    assert.not.ok(sandboxes.holds('uuid-bia'));
    // The changes listing is no use of a sandbox.
    await write('caio');
    clock.now += HOUR;
    assert.is(sandboxes.changes('uuid-caio').writes, 1);
    clock.now += HOUR + 1;
    await sandboxes.sync();
    assert.not.ok(sandboxes.holds('uuid-caio'));
  } finally {
    sandboxes.close();
  }
});

test('the time of the last write is kept: a sandbox idle past the TTL before a restart is dropped after it', async () => {
  const clock = { now: Date.parse('2026-03-02T08:00:00Z') };
  const dir = await tempDir();
  const file = join(dir, 'sandboxes.json');
  const served = new ServedCatalog(loaded.ok ? loaded.catalog : undefined, 2 ** 20);
  const bounds = { writes: 10, bytes: 64 * 2 ** 20, idleMs: 2 * HOUR };
  const first = await Sandboxes.open(
    served,
    await LogFileOverlayStore.open(file),
    bounds,
    log,
    new ChangeFeed(),
    () => clock.now,
  );
  await first.write({
    caller: { uuid: 'uuid-dora', username: 'dora', role: 'DEV' },
    request: 'POST /api/v1/locations',
    stage: (draft) => createRecord(draft, 'locations', { name: 'Pier of dora' }),
  });
  first.close();
  clock.now += 3 * HOUR;
  const second = await Sandboxes.open(
    served,
    await LogFileOverlayStore.open(file),
    bounds,
    log,
    new ChangeFeed(),
    () => clock.now,
  );
  try {
    assert.ok(second.holds('uuid-dora'), 'read back from the file');
    await second.sync();
    assert.not.ok(second.holds('uuid-dora'), 'idle since its write, 3 hours ago');
  } finally {
    second.close();
  }
});

test.run();
