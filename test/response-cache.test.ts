import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { memoryBudgets } from '../src/parts.ts';
import type { BuiltAnswer } from '../src/reads/types.ts';
import { ENTRY_OVERHEAD_BYTES, ResponseCache } from '../src/served/cached-response.ts';
import { json } from './helpers/http.ts';
import { startInProcess } from './helpers/in-process.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap and off-heap bytes in use after two collections. */
function inUse(): number {
  gc();
  gc();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

const MB = 2 ** 20;

test('an answer is kept only while its real size fits: overhead, key and headers count, not just the body', () => {
  const cache = new ResponseCache(4096, 'v1');
  const twice = (cache: ResponseCache, key: string, build: () => BuiltAnswer) => (
    cache.get(key, build),
    cache.get(key, build)
  );
  const small = twice(cache, 'small', () => ({ json: '[1]' }));
  assert.is(cache.peek('small'), small, 'a small answer is kept');
  assert.ok(small.size >= ENTRY_OVERHEAD_BYTES + 'small'.length + 3, `size ${small.size} counts the overhead`);
  // The body alone fits in the budget; with the entry's overhead and its header it does not.
  const body = JSON.stringify('x'.repeat(4096 - ENTRY_OVERHEAD_BYTES));
  twice(cache, 'big', () => ({ json: body, headers: { Link: '<…>; rel="next"' } }));
  assert.is(cache.peek('big'), undefined, 'an answer whose real size exceeds the budget is not kept');
  // A compressed variant makes an entry bigger: past the budget it goes.
  const text = JSON.stringify(Array.from({ length: 300 }, (_, i) => `${i}-${Math.random().toString(36)}`));
  const loose = new ResponseCache(text.length + ENTRY_OVERHEAD_BYTES + 100, 'v1');
  const entry = twice(loose, 'text', () => ({ json: text }));
  assert.is(loose.peek('text'), entry);
  entry.bytes('gzip');
  assert.is(loose.peek('text'), undefined, 'its gzip variant took it past the budget');
  assert.ok(loose.bytes <= text.length + ENTRY_OVERHEAD_BYTES + 100);
});

test('an answer is kept from its second request on', () => {
  const cache = new ResponseCache(MB, 'v1');
  let builds = 0;
  const build = () => ({ json: String(++builds) });
  assert.is(cache.get('page', build).body.toString(), '1');
  assert.is(cache.peek('page'), undefined, 'asked once: served, not kept');
  const kept = cache.get('page', build);
  assert.is(cache.peek('page'), kept, 'asked again: kept');
  assert.is(cache.get('page', build), kept);
  assert.is(builds, 2, 'built twice, then answered from the cache');
});

test('cheap answers (an empty page) are served but never kept', () => {
  const cache = new ResponseCache(MB, 'v1');
  cache.get('empty', () => ({ json: '[]', cheap: true }));
  const entry = cache.get('empty', () => ({ json: '[]', cheap: true }));
  assert.is(entry.body.toString(), '[]');
  assert.is(cache.peek('empty'), undefined);
  assert.is(cache.bytes, 0);
});

test('30,000 distinct small answers, each asked twice, through the server: the heap grows by no more than RESPONSE_CACHE_MB', async () => {
  const server = await startInProcess({ RESPONSE_CACHE_MB: '4' });
  try {
    const [first] = await json<{ duration: number }[]>(await server.get('/api/v1/episodes?sort=duration&size=1'));
    // Every threshold below the shortest episode matches every episode: a new URL, a real one-record page.
    const path = (n: number) => `/api/v1/episodes?duration=%3E${n}&size=1&fields=title`;
    const drive = async (from: number, count: number) => {
      for (let next = from; next < from + count;) {
        const batch = Array.from({ length: Math.min(50, from + count - next) }, (_, i) => next + i);
        next += batch.length;
        // Asked twice: an answer is kept from its second request on.
        const statuses = await Promise.all(
          batch.map(async (n) => [(await server.get(path(n))).status, (await server.get(path(n))).status]),
        );
        assert.ok(
          statuses.flat().every((status) => status === 200),
          statuses.join(' '),
        );
      }
    };
    assert.ok(first!.duration > 40_000, 'thresholds stay below every duration');
    await drive(0, 200);
    const before = inUse();
    await drive(200, 30_000);
    const grown = inUse() - before;
    const { cacheBytes } = memoryBudgets(server.config);
    assert.ok(server.served.shared.cache.bytes <= cacheBytes, 'the cache keeps to its share');
    assert.ok(grown < 4 * MB + 2 * MB, `the heap grew by ${(grown / MB).toFixed(1)} MB for a 4 MB cache`);
    // Repeated reads are still answered from the cache (the same bytes, the same tag).
    const again = [await server.get(path(30_199)), await server.get(path(30_199))];
    assert.is(again[0]!.headers.get('etag'), again[1]!.headers.get('etag'));
  } finally {
    await server.close();
  }
});

test.run();
