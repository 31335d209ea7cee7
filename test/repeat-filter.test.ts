import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RepeatFilter } from '../src/lib/repeat-filter.ts';

test('a key is seen before from its second offer on', () => {
  const repeats = new RepeatFilter(1024);
  assert.is(repeats.seenBefore('/api/v1/actors'), false);
  assert.is(repeats.seenBefore('/api/v1/actors'), true);
  assert.is(repeats.seenBefore('/api/v1/actors'), true);
  assert.is(repeats.seenBefore('/api/v1/actors?size=2'), false, 'another key is new');
});

test('a newer key may take an older key’s slot: the older one waits one more offer', () => {
  const repeats = new RepeatFilter(1);
  assert.is(repeats.seenBefore('a'), false);
  assert.is(repeats.seenBefore('b'), false);
  assert.is(repeats.seenBefore('a'), false, "b took a's only slot");
  assert.is(repeats.seenBefore('a'), true);
});

test('a flood of new keys is never seen before, and the table keeps its size', () => {
  const repeats = new RepeatFilter(4096);
  let repeated = 0;
  for (let n = 0; n < 100_000; n++) if (repeats.seenBefore(`/api/v1/episodes?q=w${n.toString(36)}`)) repeated++;
  // Two of 100,000 distinct keys sharing a 32-bit hash is rare; more than a handful is a broken hash.
  assert.ok(repeated <= 3, `${repeated} distinct keys taken for repeats`);
});

test.run();
