import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { limitHeaders } from '../src/limits/headers.ts';

test('the limit headers of a budget: its fixed policy, and the count and time left of each verdict', () => {
  const anonymous = limitHeaders('anonymous', 60, 60);
  const now = 1_795_000_000_000;
  assert.equal(anonymous({ allowed: true, limit: 60, remaining: 59, reset: now + 59_800 }, now), {
    'X-Rate-Limit-Remaining': '59',
    'X-Rate-Limit-Limit': '60',
    'X-Rate-Limit-Reset': '1795000060',
    'RateLimit-Policy': '"anonymous";q=60;w=60',
    RateLimit: '"anonymous";r=59;t=60',
  });
  const later = anonymous({ allowed: false, limit: 60, remaining: 0, reset: now + 59_800 }, now + 59_000);
  assert.is(later.RateLimit, '"anonymous";r=0;t=1');
  assert.is(later['X-Rate-Limit-Reset'], '1795000060');
  // A window already over (a verdict computed just before it ended) never shows a negative time.
  assert.is(anonymous({ allowed: true, limit: 60, remaining: 10, reset: now }, now + 2_000).RateLimit, '"anonymous";r=10;t=0');
  assert.is(limitHeaders('basic', 1000, 3600)({ allowed: true, limit: 1000, remaining: 1, reset: now }, now)['RateLimit-Policy'], '"basic";q=1000;w=3600');
});

test.run();
