import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { loadCatalog } from '../src/catalog/load.ts';
import { Positions } from '../src/catalog/positions.ts';
import { ROOT } from './helpers/spawn.ts';

// A write's new version of a family store shares what the write leaves as it was: positions
// (in layers) and the indexes of fields whose values it keeps.
const loaded = await loadCatalog(join(ROOT, 'data'), { defaultLanguage: 'en-US' });
if (!loaded.ok) throw new Error(`catalog refused: ${loaded.problems[0]?.message}`);
const episodes = loaded.catalog.store('episodes');

test('positions added one by one, folded into the base now and then: every version answers its own', () => {
  const records = Array.from({ length: 50 }, (_, n) => ({ uuid: `r${n}` }));
  const versions = [Positions.of(records)];
  for (let n = 50; n < 600; n++) versions.push(versions.at(-1)!.with(`r${n}`, n));
  versions.forEach((positions, version) => {
    const size = 50 + version;
    for (const n of [0, 49, size - 1]) assert.is(positions.get(`r${n}`), n, `version ${version}, r${n}`);
    assert.is(positions.get(`r${size}`), undefined, `version ${version} holds no later record`);
  });
  assert.is(versions[0]!.get('toString'), undefined);
  assert.is(versions.at(-1)!.get('__proto__'), undefined);
});

test('a patched store keeps the indexes of the fields a write leaves, and builds the others again', () => {
  const first = episodes.records[0]!;
  const second = episodes.records.find((episode) => episode.season !== first.season)!;
  const seasonIndex = episodes.index('season', 'en-US');
  const durationIndex = episodes.index('duration', 'en-US');
  const titles = episodes.index('title', 'en-US');
  const longer = episodes.patched(new Map([[first.uuid, { ...first, duration: 999_999_999 }]]), new Map());
  assert.is(longer.index('season', 'en-US'), seasonIndex, 'the season links did not change: shared');
  assert.is(longer.index('title', 'en-US'), titles, 'no translation changed: shared');
  assert.is.not(longer.index('duration', 'en-US'), durationIndex);
  assert.equal([...longer.index('duration', 'en-US').get(999_999_999)], [0]);
  assert.equal([...durationIndex.get(999_999_999)], [], 'the earlier version is as it was');
  // Moved to another episode's season: the season index is built again and says so.
  const moved = longer.patched(new Map([[first.uuid, { ...first, season: second.season }]]), new Map());
  assert.is.not(moved.index('season', 'en-US'), seasonIndex);
  assert.ok(
    moved
      .index('season', 'en-US')
      .get(second.season as string)
      .includes(0),
  );
  const retitled = moved.patched(new Map(), new Map([['en-US', new Map([[first.uuid, { title: 'Quite new' }]])]]));
  assert.is.not(retitled.index('title', 'en-US'), titles);
  assert.equal([...retitled.index('title', 'en-US').get('Quite new')], [0]);
  // An added record: nothing is passed on, everything answers for it.
  const added = retitled.patched(new Map([['added-uuid', { ...second, uuid: 'added-uuid' }]]), new Map());
  assert.is(added.position('added-uuid'), episodes.size);
  assert.ok(
    added
      .index('season', 'en-US')
      .get(second.season as string)
      .includes(episodes.size),
  );
});

test.run();
