import type { Verdict } from './window-counter.ts';

/**
 * The rate-limit headers of one answer: HawAPI's `X-Rate-Limit-*` trio (official clients read
 * `X-Rate-Limit-Remaining`) and the IETF draft pair `RateLimit-Policy` / `RateLimit`.
 *
 * @example
 * limitHeaders('anonymous', { allowed: true, limit: 60, remaining: 59, reset: 1795000059800 }, 60, 1795000000);
 * // { 'X-Rate-Limit-Remaining': '59', 'X-Rate-Limit-Limit': '60', 'X-Rate-Limit-Reset': '1795000060',
 * //   'RateLimit-Policy': '"anonymous";q=60;w=60', RateLimit: '"anonymous";r=59;t=60' }
 */
export function limitHeaders(policy: string, verdict: Verdict, windowSeconds: number, nowSeconds: number): Record<string, string> {
  const reset = verdict.reset / 1000;
  const left = Math.max(0, Math.round(reset - nowSeconds));
  return {
    'X-Rate-Limit-Remaining': String(verdict.remaining),
    'X-Rate-Limit-Limit': String(verdict.limit),
    'X-Rate-Limit-Reset': String(Math.ceil(reset)),
    'RateLimit-Policy': `"${policy}";q=${verdict.limit};w=${windowSeconds}`,
    RateLimit: `"${policy}";r=${verdict.remaining};t=${left}`,
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
