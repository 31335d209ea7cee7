import { decimal } from '../lib/text.ts';
import type { Verdict } from './window-counter.ts';

/** The rate-limit headers of one answer counted in a budget, from its verdict and the time (epoch ms). */
export type LimitHeaders = (verdict: Verdict, nowMs: number) => Record<string, string>;

/**
 * The rate-limit headers of the answers counted in one budget: HawAPI's `X-Rate-Limit-*` trio
 * (official clients read `X-Rate-Limit-Remaining`) and the IETF draft pair `RateLimit-Policy`
 * / `RateLimit`. What never changes for the budget (its limit, window and policy) is written
 * once here rather than for every answer.
 *
 * @example
 * const headers = limitHeaders('anonymous', 60, 60);
 * headers({ allowed: true, limit: 60, remaining: 59, reset: 1795000059800 }, 1795000000000);
 * // { 'X-Rate-Limit-Remaining': '59', 'X-Rate-Limit-Limit': '60', 'X-Rate-Limit-Reset': '1795000060',
 * //   'RateLimit-Policy': '"anonymous";q=60;w=60', RateLimit: '"anonymous";r=59;t=60' }
 */
export function limitHeaders(policy: string, limit: number, windowSeconds: number): LimitHeaders {
  const limitText = String(limit);
  const policyText = `"${policy}";q=${limit};w=${windowSeconds}`;
  const left = `"${policy}";r=`;
  return ({ remaining, reset }, nowMs) => {
    // decimal, not String: the texts of numbers new with each request stay out of V8's cache.
    const remainingText = decimal(remaining);
    return {
      'X-Rate-Limit-Remaining': remainingText,
      'X-Rate-Limit-Limit': limitText,
      'X-Rate-Limit-Reset': decimal(Math.ceil(reset / 1000)),
      'RateLimit-Policy': policyText,
      // join makes a flat string; a template makes a rope that Node's header check must flatten.
      RateLimit: [left, remainingText, ';t=', decimal(Math.max(0, Math.round((reset - nowMs) / 1000)))].join(''),
    };
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
