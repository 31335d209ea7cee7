import { fullFormats } from 'ajv-formats/dist/formats.js';

/** A uuid as the catalog and the accounts write it: lowercase, hyphenated. */
export const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?$/;

/** True for an ISO local date-time such as `2024-03-01T10:15:30.120` naming a real instant. */
export function isLocalDateTime(value: string): boolean {
  const m = LOCAL_DATE_TIME.exec(value);
  if (!m) return false;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  // Every month has its 28th: only later days need the calendar.
  if (mo >= 1 && mo <= 12 && d >= 1 && d <= 28) return h < 24 && mi < 60 && s < 60;
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  return (
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    h < 24 &&
    mi < 60 &&
    s < 60
  );
}

const canonical = new Map<string, string | undefined>();

/**
 * The canonical spelling of a BCP 47 tag (`pt-br` → `pt-BR`), or undefined when malformed.
 * Remembered per tag: a catalog repeats a handful of tags on every translation row.
 */
export function canonicalLanguage(tag: string): string | undefined {
  if (canonical.has(tag)) return canonical.get(tag);
  let found: string | undefined;
  try {
    found = Intl.getCanonicalLocales(tag)[0];
  } catch {
    found = undefined;
  }
  if (canonical.size < 1000) canonical.set(tag, found);
  return found;
}

/**
 * A picture the catalog serves itself, as the data names it: `/images/<folder>/<name>.<type>`
 * (a folder of letters, digits, `_` and `-`; a name of those and dots, never starting with
 * one), kept at the same place under the data directory (`data/images/…`). Answers make it absolute.
 */
export const LOCAL_PICTURE = /^\/images\/[A-Za-z0-9_-]+\/[A-Za-z0-9_-][A-Za-z0-9._-]*\.(?:svg|png|jpe?g|webp)$/;

/**
 * The string formats the schemas use, by name: ajv-formats' `date`, `uri` and `email`, and the
 * catalog's own. Validators generated at build time read their formats from here.
 */
const isUri = fullFormats.uri as (value: string) => boolean;

export const FORMATS = {
  date: fullFormats.date,
  uri: fullFormats.uri,
  email: fullFormats.email,
  'local-date-time': isLocalDateTime,
  'language-tag': (tag: string) => canonicalLanguage(tag) === tag,
  'picture-url': (value: string) => LOCAL_PICTURE.test(value) || isUri(value),
};
