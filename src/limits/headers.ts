import { decimal } from '../lib/text.ts';
import type { Verdict } from './window-counter.ts';

/**
 * The rate-limit headers of one answer counted in a budget, from its verdict and the time (epoch ms), as name, value
 * pairs.
 */
export type LimitHeaders = (verdict: Verdict, nowMs: number) => string[];

/**
 * The rate-limit headers of the answers counted in one budget: HawAPI's `X-Rate-Limit-*` trio
 * (official clients read `X-Rate-Limit-Remaining`) and the IETF draft pair `RateLimit-Policy`
 * / `RateLimit`, as name, value pairs (the form the fast path adds to a replayed answer's).
 * What never changes for the budget (its limit, window and policy) is written once here, and
 * the reset time again only when a verdict's differs from the last one's.
 *
 * @example
 * const headers = limitHeaders('anonymous', 60, 60);
 * headers({ allowed: true, limit: 60, remaining: 59, reset: 1795000059800 }, 1795000000000);
 * // ['X-Rate-Limit-Remaining', '59', 'X-Rate-Limit-Limit', '60', 'X-Rate-Limit-Reset', '1795000060',
 * //  'RateLimit-Policy', '"anonymous";q=60;w=60', 'RateLimit', '"anonymous";r=59;t=60']
 */
export function limitHeaders(policy: string, limit: number, windowSeconds: number): LimitHeaders {
  const limitText = String(limit);
  const policyText = `"${policy}";q=${limit};w=${windowSeconds}`;
  const left = `"${policy}";r=`;
  let lastReset = Number.NaN;
  let resetText = '';
  return ({ remaining, reset }, nowMs) => {
    if (reset !== lastReset) {
      lastReset = reset;
      resetText = decimal(Math.ceil(reset / 1000));
    }
    // decimal, not String: the texts of numbers new with each request stay out of V8's cache.
    const remainingText = decimal(remaining);
    // join makes a flat string; a template makes a rope that Node's header check must flatten.
    const rateLimit = [left, remainingText, ';t=', decimal(Math.max(0, Math.round((reset - nowMs) / 1000)))].join('');
    return [
      'X-Rate-Limit-Remaining',
      remainingText,
      'X-Rate-Limit-Limit',
      limitText,
      'X-Rate-Limit-Reset',
      resetText,
      'RateLimit-Policy',
      policyText,
      'RateLimit',
      rateLimit,
    ];
  };
}

/**
 * `Retry-After` and its HawAPI twin, in whole seconds (at least 1).
 *
 * @example
 * retryHeaders(42); // { 'Retry-After': '42', 'X-Rate-Limit-Retry-After-Seconds': '42' }
 */
export function retryHeaders(seconds: number): Record<string, string> {
  const after = String(Math.max(1, Math.ceil(seconds)));
  return { 'Retry-After': after, 'X-Rate-Limit-Retry-After-Seconds': after };
}
