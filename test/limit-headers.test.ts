import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { limitHeaders, type LimitHeaders } from '../src/limits/headers.ts';
import type { Verdict } from '../src/limits/window-counter.ts';

/** The headers of one verdict, by name. */
function named(headers: LimitHeaders, verdict: Verdict, nowMs: number): Record<string, string> {
  const pairs = headers(verdict, nowMs);
  assert.is(pairs.length % 2, 0, 'name, value pairs');
  return Object.fromEntries(Array.from({ length: pairs.length / 2 }, (_, i) => [pairs[2 * i]!, pairs[2 * i + 1]!]));
}

test('the limit headers of a budget: its fixed policy, and the count and time left of each verdict', () => {
  const anonymous = limitHeaders('anonymous', 60, 60);
  const now = 1_795_000_000_000;
  assert.equal(named(anonymous, { allowed: true, limit: 60, remaining: 59, reset: now + 59_800 }, now), {
    'X-Rate-Limit-Remaining': '59',
    'X-Rate-Limit-Limit': '60',
    'X-Rate-Limit-Reset': '1795000060',
    'RateLimit-Policy': '"anonymous";q=60;w=60',
    RateLimit: '"anonymous";r=59;t=60',
  });
  const later = named(anonymous, { allowed: false, limit: 60, remaining: 0, reset: now + 59_800 }, now + 59_000);
  assert.is(later.RateLimit, '"anonymous";r=0;t=1');
  assert.is(later['X-Rate-Limit-Reset'], '1795000060');
  // A window already over (a verdict computed just before it ended) never shows a negative time.
  assert.is(
    named(anonymous, { allowed: true, limit: 60, remaining: 10, reset: now }, now + 2_000).RateLimit,
    '"anonymous";r=10;t=0',
  );
  assert.is(
    named(limitHeaders('basic', 1000, 3600), { allowed: true, limit: 1000, remaining: 1, reset: now }, now)[
      'RateLimit-Policy'
    ],
    '"basic";q=1000;w=3600',
  );
});

test("clients' verdicts in turn each get their own reset time and count, large ones included", () => {
  const basic = limitHeaders('basic', 1_000_000_000, 60);
  const now = 1_795_000_000_000;
  for (let i = 0; i < 6; i++) {
    const reset = now + (i % 3) * 7_000 + 500;
    const shown = named(basic, { allowed: true, limit: 1_000_000_000, remaining: 999_999_990 - i, reset }, now);
    assert.is(shown['X-Rate-Limit-Reset'], String(Math.ceil(reset / 1000)));
    assert.is(shown['X-Rate-Limit-Remaining'], String(999_999_990 - i));
    assert.is(shown.RateLimit, `"basic";r=${999_999_990 - i};t=${Math.round((reset - now) / 1000)}`);
  }
});

test.run();
