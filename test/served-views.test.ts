import { join } from 'node:path';
import { setImmediate as tick } from 'node:timers/promises';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadCatalog } from '../src/catalog/load.ts';
import { ServedCatalog, servedOf, type Served } from '../src/served/served-catalog.ts';
import { ROOT } from './helpers/spawn.ts';

const loaded = await loadCatalog(join(ROOT, 'data'), { defaultLanguage: 'en-US' });
if (!loaded.ok) throw new Error('the embedded catalog does not load');
const { catalog } = loaded;

test('a request within a view reads it to its end, whatever other views begin and end meanwhile; outside, the shared catalog', async () => {
  const served = new ServedCatalog(catalog, 2 ** 20);
  const [a, b] = [servedOf(catalog, 1024), servedOf(catalog, 1024)];
  let endA!: () => void;
  const gate = new Promise<void>((resolve) => (endA = resolve));
  const first = served.within(
    () => a,
    async () => {
      await gate;
      return served.current;
    },
  );
  const seenByB: Served[] = [];
  const second = served.within(
    () => b,
    async () => {
      seenByB.push(served.current);
      await first; // the other request's view has ended: this one goes on
      seenByB.push(served.current);
      await new Promise((resolve) => setTimeout(resolve, 5));
      seenByB.push(served.current);
    },
  );
  assert.is(served.current, served.shared, 'outside every view');
  endA();
  assert.is(await first, a);
  await second;
  assert.equal(
    seenByB.map((view) => view === b),
    [true, true, true],
    "the second request read its own view after the first one's ended",
  );
  assert.is(served.current, served.shared, 'after both');
  // The storage turned off with the last one, and on again with the next.
  assert.is(
    await served.within(
      () => a,
      async () => {
        await tick();
        return served.current;
      },
    ),
    a,
  );
  await served
    .within(
      () => b,
      async () => {
        await tick();
        throw new Error('a request that fails');
      },
    )
    .then(
      () => assert.unreachable('it failed'),
      (error: Error) => assert.is(error.message, 'a request that fails'),
    );
  assert.is(served.current, served.shared, 'a failed request leaves no view behind');
  assert.is(
    await served.within(
      () => undefined,
      async () => served.current,
    ),
    served.shared,
    'a view that gives no catalog reads the shared one',
  );
});

test.run();
