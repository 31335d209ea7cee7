/**
 * `text` with its first letter in upper case.
 *
 * @example
 * capitalize('actor'); // 'Actor'
 */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * `word` after the article its sound takes: "an" before a vowel letter but `u` (a uuid, a
 * url), else "a". Enough for the words messages put it before: roles, families, JSON types
 * and language tags.
 *
 * @example
 * withArticle('ADMIN'); // 'an ADMIN'
 * withArticle('episode'); // 'an episode'
 */
export function withArticle(word: string): string {
  return `${/^[aeio]/i.test(word) ? 'an' : 'a'} ${word}`;
}

/** 0 to 999 as text, and the same padded to three digits. */
const UNDER_1000 = Array.from({ length: 1000 }, (_, n) => String(n));
const THREE_DIGITS = UNDER_1000.map((text) => text.padStart(3, '0'));

/**
 * A whole number as `String(n)` writes it, made without V8's number-to-string cache. That
 * cache is a table in the old generation: the text of every number not seen before (a
 * budget's remaining count, new with each request) is kept there, so it survives the next
 * young-generation collection and is copied and promoted, which made collections four times
 * as long under load (docs/performance.md). Below 1000, the text is made once at start.
 *
 * @example
 * decimal(999_999_998); // '999999998'
 */
export function decimal(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) return String(n);
  if (n < 1000) return UNDER_1000[n]!;
  const high = Math.floor(n / 1000);
  // Texts under 13 characters concatenate flat (no rope for the header check to flatten).
  return decimal(high) + THREE_DIGITS[n - high * 1000]!;
}
