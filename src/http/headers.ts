/** Response headers a browser app may read across origins (CORS `Access-Control-Expose-Headers`). */
export const EXPOSED_HEADERS = [
  'Link',
  'ETag',
  'Content-Language',
  'Content-Length',
  'Retry-After',
  'X-Pagination-Page-Index',
  'X-Pagination-Page-Size',
  'X-Pagination-Page-Total',
  'X-Pagination-Item-Total',
  'X-Rate-Limit-Remaining',
  'X-Rate-Limit-Limit',
  'X-Rate-Limit-Reset',
  'X-Rate-Limit-Retry-After-Seconds',
  'RateLimit',
  'RateLimit-Policy',
  'WWW-Authenticate',
  // A write's 201 names the new record here.
  'Location',
  // The data version an answer was read from: the change feed's cursor (docs/changes.md).
  'Catalog-Version',
];

/** Headers every answer carries: error bodies echo the query, so no browser may sniff a type. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = { 'X-Content-Type-Options': 'nosniff' };
