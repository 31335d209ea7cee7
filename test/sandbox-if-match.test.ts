import { ChangeFeed } from '../src/changes/feed.ts';
import { PACKAGE } from '../src/lib/package-info.ts';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Caller } from '../src/accounts/account.ts';
import { LogFileOverlayStore } from '../src/catalog-writes/file-store.ts';
import { loadCatalog } from '../src/catalog/load.ts';
import { createLogger } from '../src/config/logger.ts';
import { CatalogWriter } from '../src/http/catalog-writer.ts';
import { recordEntry } from '../src/reads/records.ts';
import { HttpError } from '../src/lib/http-error.ts';
import { Curator } from '../src/served/curator.ts';
import { Sandboxes } from '../src/served/sandboxes.ts';
import { ServedCatalog } from '../src/served/served-catalog.ts';
import { tempDir } from './helpers/http.ts';
import { ROOT } from './helpers/spawn.ts';

// If-Match on a sandbox write is checked against the catalog the write is staged on: the
// student's own, with its earlier writes of the same batch, whichever student's request began
// the batch (once, it was checked against whatever the batch's first request read).
const loaded = await loadCatalog(join(ROOT, 'data'), { defaultLanguage: 'en-US' });
if (!loaded.ok) throw new Error(`catalog refused: ${loaded.problems[0]?.message}`);
const log = createLogger({ level: 'silent', format: 'text' });
const ORIGIN = 'http://localhost:3000';

const student = (username: string): Caller => ({ uuid: `uuid-${username}`, username, role: 'BASIC' });
const outcome = <T>(promise: Promise<T>) =>
  promise.then(
    () => 'kept',
    (error: unknown) => (error instanceof HttpError ? error.status : String(error)),
  );

test("If-Match of a sandbox write in a batch begun by another student's: checked on the writer's own catalog", async () => {
  const folder = await tempDir();
  const served = new ServedCatalog(loaded.catalog, 2 ** 20);
  const feed = new ChangeFeed();
  const curator = await Curator.open(served, await LogFileOverlayStore.open(join(folder, 'overlay.json')), log, feed);
  const sandboxes = await Sandboxes.open(
    served,
    await LogFileOverlayStore.open(join(folder, 'sandboxes.json')),
    { writes: 50, bytes: 64 * 2 ** 20, idleMs: 3_600_000 },
    log,
    feed,
  );
  const writer = new CatalogWriter({
    served,
    about: PACKAGE,
    cacheSeconds: 60,
    maxPageSize: 50,
    maxCsvRows: 1000,
    curator,
    sandboxes,
  });
  const [ana, bia] = [student('ana'), student('bia')];
  const call = (caller: Caller, ifMatch?: string) => ({ caller, request: 'PATCH', origin: ORIGIN, ifMatch });
  try {
    const { uuid } = await writer.createRecord(call(ana), 'locations', { name: 'Pier of ana' });
    const own = sandboxes.viewOf(ana.uuid)!;
    const tag = recordEntry(own, 'locations', own.catalog.store('locations').position(uuid)!, 'en-US', ORIGIN).etagFor(
      'identity',
    );
    await writer.createRecord(call(bia), 'locations', { name: 'Pier of bia' });

    const first = outcome(writer.createRecord(call(bia), 'locations', { name: 'Another pier of bia' }));
    // Once bia's batch is being kept: ana's two patches wait for the next one, together.
    await new Promise(setImmediate);
    const batch = [
      outcome(writer.patchRecord(call(ana, tag), 'locations', uuid, { name: 'Pier of ana, renamed' })),
      outcome(writer.patchRecord(call(ana, tag), 'locations', uuid, { name: 'Pier of ana, twice' })),
      outcome(writer.patchRecord(call(bia, tag), 'locations', uuid, { name: 'Not bia’s to rename' })),
    ];
    assert.is(await first, 'kept');
    assert.equal(
      await Promise.all(batch),
      ['kept', 412, 412],
      "ana's tag holds for her first patch, not after it; in bia's catalog no such location, so no tag, is current",
    );
    const after = writer.catalogOf(ana);
    const at = after.store('locations').position(uuid)!;
    assert.is(after.store('locations').translation(at, 'en-US').fields.name, 'Pier of ana, renamed');
    assert.is(writer.catalogOf(bia).store('locations').position(uuid), undefined, "bia's view never holds ana's");
    assert.is(writer.catalogOf(undefined), served.shared.catalog, 'anonymous callers read the shared catalog');
  } finally {
    sandboxes.close();
  }
});

test.run();
