import { UUID_PATTERN } from '../lib/formats.ts';
import { HttpError } from '../lib/http-error.ts';
import { isFamilyName, type FamilyName } from './families.ts';

// The one owner of the href format, `/api/v1/<family>/<uuid>`: every record's `href`, every
// relation in the data and every route of a family are spelled here and nowhere else.

/** Where a family's routes begin: `/api/v1/actors`; the overview's is `/api/v1/overview`. */
export const familyPath = (name: FamilyName): string => `/api/v1/${name}`;

/** The href of record `uuid` of family `name`. */
export const hrefOf = (name: FamilyName, uuid: string): string => `/api/v1/${name}/${uuid}`;

/** Where a record is read: at its href, but the single overview at its family's path. */
export const recordPath = (name: FamilyName, uuid: string): string =>
  name === 'overview' ? familyPath(name) : hrefOf(name, uuid);

/**
 * Where a record's translation in `language` is read: `…/{uuid}/translations/{language}` (the overview's under its
 * family's path).
 */
export const translationHref = (name: FamilyName, uuid: string, language: string): string =>
  `${recordPath(name, uuid)}/translations/${language}`;

/** Where an actor's social on network `social` is read. */
export const socialHref = (uuid: string, social: string): string =>
  `${hrefOf('actors', uuid)}/socials/${encodeURIComponent(social)}`;

/** Whether `href` is of family `name` (its uuid unchecked). */
export const isHrefInto = (href: string, name: FamilyName): boolean => href.startsWith(`/api/v1/${name}/`);

/** The uuid an href of family `name` names, or undefined for an href into another family. */
export function uuidIn(href: string, name: FamilyName): string | undefined {
  const prefix = `/api/v1/${name}/`;
  return href.startsWith(prefix) ? href.slice(prefix.length) : undefined;
}

/**
 * Whether `href` is exactly the href of record `uuid` of `name`, compared without building it
 * (a million records would make a million strings).
 */
export function isHrefOf(href: unknown, name: FamilyName, uuid: string): boolean {
  const prefix = `/api/v1/${name}/`;
  return (
    typeof href === 'string' &&
    href.length === prefix.length + uuid.length &&
    href.startsWith(prefix) &&
    href.endsWith(uuid)
  );
}

const HREF = /^\/api\/v1\/([a-z]+)\/([^/]+)$/;

/**
 * The family and uuid an href names, or undefined when it is not of the form; `family` is the
 * text found there, which the caller checks against the families it accepts.
 *
 * @example
 * parseHref('/api/v1/seasons/0a…'); // { family: 'seasons', uuid: '0a…' }
 */
export function parseHref(href: string): { family: string; uuid: string } | undefined {
  const match = HREF.exec(href);
  return match ? { family: match[1]!, uuid: match[2]! } : undefined;
}

/** The family and uuid of an href of a known family, or undefined. */
export function parseFamilyHref(href: string): { family: FamilyName; uuid: string } | undefined {
  const parsed = parseHref(href);
  return parsed && isFamilyName(parsed.family) ? { family: parsed.family, uuid: parsed.uuid } : undefined;
}

const UUID = new RegExp(UUID_PATTERN);

/**
 * A uuid as given in a path or an argument, in lower case (the form records hold), or a 400
 * when it is not one.
 *
 * @example
 * checkedUuid('0A1B…'); // '0a1b…'
 */
export function checkedUuid(raw: string): string {
  const uuid = raw.toLowerCase();
  if (!UUID.test(uuid)) throw new HttpError(400, `'${raw}' is not a valid uuid`);
  return uuid;
}
