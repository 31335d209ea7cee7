/**
 * The policy a picture is served under: opened on its own (an SVG is a document), it may run
 * no script, load nothing and is sandboxed; only its own inline styles apply.
 */
export const PICTURE_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/** `Cache-Control` of a picture: a week, revalidated by its ETag after that (a picture changes only with the data). */
export const PICTURE_CACHE_CONTROL = 'public, max-age=604800';

/** The headers of a picture answer besides its `Cache-Control` and ETag. */
export const pictureHeaders = (type: string): Record<string, string> => ({
  'Content-Type': type,
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': PICTURE_CSP,
});
