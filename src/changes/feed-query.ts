import type { Catalog } from '../catalog/catalog.ts';
import { FAMILY_NAMES, isFamilyName, type FamilyName } from '../catalog/families.ts';
import { knownLanguage } from '../catalog/language.ts';
import { once } from '../catalog/list-request.ts';
import { HttpError } from '../lib/http-error.ts';
import type { QueryValue } from '../reads/types.ts';

/** The changes a page holds when `limit` is not given, and the most it may ask. */
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

/** What a reader of the feed asked: where to start, how many, which families, and whether with records. */
export interface FeedQuery {
  /** A cursor, `now`, or undefined: from the first change kept. */
  since?: string;
  limit: number;
  /** Only changes of these families (undefined: every change, new data and resets included). */
  families?: ReadonlySet<FamilyName>;
  /** `include=records`: each change with its record as served now, in `language`. */
  records: boolean;
  /** `include=sandboxes`: a stream also tells an ADMIN each student's sandbox activity (the teacher's board). */
  sandboxes?: boolean;
  language: string;
}

const PARAMETERS = new Set(['since', 'limit', 'family', 'include', 'language']);

/**
 * The feed query of `query` (a request's parameters, repeated ones as arrays; `ignores`: the
 * face's own, such as `_delay`): a 400 naming the parameter for anything else, a repeated
 * `since`, a `limit` that is no whole number from 1 (larger ones are served `MAX_LIMIT`), an
 * unknown family or `include`, or a language the catalog does not have.
 *
 * @example
 * readFeedQuery({ since: 'now', family: 'episodes,seasons' }, catalog, () => false);
 * // { since: 'now', limit: 100, families: Set { 'episodes', 'seasons' }, records: false, language: 'en-US' }
 */
export function readFeedQuery(
  query: Readonly<Record<string, QueryValue>>,
  catalog: Catalog,
  ignores: (name: string) => boolean,
): FeedQuery {
  for (const name of Object.keys(query)) {
    if (!PARAMETERS.has(name) && !ignores(name))
      throw new HttpError(
        400,
        `Unknown parameter '${name}' of the change feed; it takes ${[...PARAMETERS].join(', ')}`,
      );
  }
  const since = once<string>('since', query.since);
  const limitText = once<string>('limit', query.limit);
  // Any length of digits: a larger number is served as MAX_LIMIT, however many digits it has.
  if (limitText !== undefined && !/^[1-9]\d*$/.test(limitText))
    throw new HttpError(
      400,
      `Parameter 'limit' must be a whole number from 1 (larger than ${MAX_LIMIT} is served as ${MAX_LIMIT}); got ` +
        `'${limitText.slice(0, 40)}'`,
    );
  const familyText = once<string>('family', query.family);
  const families = familyText === undefined ? undefined : new Set(familyText.split(',').map(familyNamed));
  const include = new Set(once<string>('include', query.include)?.split(',') ?? []);
  for (const name of include)
    if (name !== 'records' && name !== 'sandboxes')
      throw new HttpError(400, `Parameter 'include' takes 'records' and 'sandboxes' (got '${name.slice(0, 40)}')`);
  const language = once<string>('language', query.language);
  return {
    ...(since !== undefined ? { since } : {}),
    limit: Math.min(MAX_LIMIT, Number(limitText ?? DEFAULT_LIMIT)),
    ...(families ? { families } : {}),
    records: include.has('records'),
    sandboxes: include.has('sandboxes'),
    language: language === undefined ? catalog.defaultLanguage : knownLanguage(catalog, language),
  };
}

function familyNamed(name: string): FamilyName {
  if (isFamilyName(name)) return name;
  throw new HttpError(
    400,
    `Parameter 'family' names no family: '${name.slice(0, 40)}'; the families are ${FAMILY_NAMES.join(', ')}`,
  );
}
