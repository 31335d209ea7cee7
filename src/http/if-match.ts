import type { Catalog } from '../catalog/catalog.ts';
import { family, type FamilyName } from '../catalog/families.ts';
import { familyPath, hrefOf } from '../catalog/href.ts';
import { HttpError } from '../lib/http-error.ts';
import type { CachedResponse } from '../served/cached-response.ts';
import type { Served } from '../served/served-catalog.ts';
import { overviewEntry } from '../reads/overview.ts';
import { recordEntry } from '../reads/records.ts';
import { namedSocialEntry } from '../reads/socials.ts';
import { translationEntry } from '../reads/translations.ts';

/** A write's condition on the catalog it is staged on: throws when it does not hold. */
export type Precondition = (catalog: Catalog) => void;
/** A catalog a write is staged on, as served to its caller (the ETags of its answers). */
export type ServedAs = (catalog: Catalog) => Served;

/**
 * `If-Match`: the write goes ahead only if one of the tags is the current ETag of the target
 * as a GET answers it (in any language and encoding), or `*`. Without it the last write wins,
 * as in HawAPI.
 */
function ifMatch(
  sent: string | undefined,
  path: string,
  current: (catalog: Catalog) => CachedResponse[],
): Precondition | undefined {
  const header = sent?.trim();
  if (!header || header === '*') return undefined;
  const tags = header.split(',').map((tag) => tag.trim());
  return (catalog) => {
    const now = current(catalog).flatMap((entry) =>
      ['identity', 'br', 'gzip'].map((encoding) => entry.etagFor(encoding)),
    );
    if (!tags.some((tag) => now.includes(tag))) {
      throw new HttpError(
        412,
        `If-Match ${header} is not the current ETag of ${path}: it changed since it was read (now ${now[0]}); ` +
          `read it again and retry`,
      );
    }
  };
}

function recordPath(name: FamilyName, uuid: string): string {
  return name === 'overview' ? familyPath(name) : hrefOf(name, uuid);
}

/** The `If-Match` condition (`sent`) on a record: its ETag in any of its languages. */
export function recordTags(
  sent: string | undefined,
  name: FamilyName,
  uuid: string,
  origin: string,
  servedAs: ServedAs,
): Precondition | undefined {
  return ifMatch(sent, recordPath(name, uuid), (catalog) => {
    const served = servedAs(catalog);
    const at = catalog.store(name).position(uuid);
    const languages = family(name).translation ? catalog.languages : [catalog.defaultLanguage];
    const entryIn = (language: string) =>
      name === 'overview' ? overviewEntry(served, language, origin) : recordEntry(served, name, at!, language, origin);
    return at === undefined ? [] : languages.map(entryIn);
  });
}

/** The `If-Match` condition (`sent`) on one translation of a record (its language in any case). */
export function translationTags(
  sent: string | undefined,
  name: FamilyName,
  uuid: string,
  language: string,
  servedAs: ServedAs,
): Precondition | undefined {
  return ifMatch(sent, `${recordPath(name, uuid)}/translations/${language}`, (catalog) => {
    const store = catalog.store(name);
    const at = store.position(uuid);
    const held =
      at === undefined ? undefined : store.languagesOf(at).find((l) => l.toLowerCase() === language.toLowerCase());
    return held ? [translationEntry(servedAs(catalog), name, at!, held)] : [];
  });
}

/** The `If-Match` condition (`sent`) on one of an actor's socials. */
export function socialTags(
  sent: string | undefined,
  uuid: string,
  social: string,
  servedAs: ServedAs,
): Precondition | undefined {
  return ifMatch(sent, `${hrefOf('actors', uuid)}/socials/${social}`, (catalog) => {
    const entry = namedSocialEntry(servedAs(catalog), uuid, social);
    return entry ? [entry] : [];
  });
}
