import { randomUUID } from 'node:crypto';
import { HttpError } from '../../lib/http-error.ts';
import { canonicalLanguage } from '../../lib/formats.ts';
import { capitalize, withArticle } from '../../lib/text.ts';
import { FAMILIES, type Family, type FamilyName } from '../families.ts';
import type { Problem } from '../types.ts';
import { bodyObject, shown, splitBody, withoutNullFields, type SplitBody } from './body.ts';
import type { Draft, Row, RowChange } from './draft.ts';
import { hrefOf } from '../href.ts';
import { detach, keepLinks, type Edit } from './links.ts';
import { mergePatch } from './merge-patch.ts';
import { addToSeasonTotal, joinSeason, leaveSeason } from './seasons.ts';

/** What a write changed and where its answer is: the record, and the translation language or social it named. */
export interface WriteOutcome {
  changes: RowChange[];
  /**
   * Links the write could not keep in step (records that still link to a deleted one): the gate refuses it with them.
   */
  conflicts: Problem[];
  family: FamilyName;
  uuid: string;
  language?: string;
}

/** The moment of a write as the data writes times: a local date-time in UTC, to the millisecond. */
export const writeTime = (): string => new Date().toISOString().slice(0, 23);

function familyOf(name: FamilyName): Family {
  return FAMILIES.get(name)!;
}

/** The record `uuid` of `name`, or a 404. */
function existing(draft: Draft, name: FamilyName, uuid: string): Row {
  const record = draft.record(name, uuid);
  if (!record) throw new HttpError(404, `${capitalize(familyOf(name).singular)} '${uuid}' not found`);
  return record;
}

/** What the edit staged, for the gate (`passGate`) to check before anything is kept. */
function staged(edit: Edit, outcome: Omit<WriteOutcome, 'changes' | 'conflicts'>): WriteOutcome {
  return { changes: edit.draft.changes(), conflicts: edit.conflicts, ...outcome };
}

/** The language a body's translated fields are in: the one it names, else the default. */
function languageOf(edit: Edit, language: unknown): string {
  if (language === undefined) return edit.draft.catalog.defaultLanguage;
  if (typeof language !== 'string')
    throw new HttpError(400, `/language: must be a language tag such as pt-BR, got ${shown(language)}`);
  return canonicalLanguage(language) ?? language;
}

/** A POST may not set the server's fields. */
function refuseServerFields(split: SplitBody): void {
  const sent = Object.keys(split.server);
  if (sent.length)
    throw new HttpError(
      400,
      `${sent.map((f) => `/${f}`).join(', ')}: set by the server; leave ${sent.length === 1 ? 'it' : 'them'} out ` +
        `of the request`,
    );
}

/**
 * A PATCH may repeat the server's fields as they are (HawAPI's Go SDK sends back the whole
 * record it read), never change them.
 */
function refuseChangedServerFields(draft: Draft, name: FamilyName, uuid: string, record: Row, split: SplitBody): void {
  const current: Row = { ...record, languages: draft.languagesOf(name, uuid) };
  const changed = Object.entries(split.server).filter(
    ([field, value]) => JSON.stringify(value) !== JSON.stringify(current[field]),
  );
  if (changed.length) {
    const parts = changed.map(
      ([field, value]) =>
        `/${field}: is the server's and cannot change (it is ${shown(current[field])}, the request says ` +
        `${shown(value)})`,
    );
    throw new HttpError(400, parts.join('; '));
  }
}

/**
 * `POST /api/v1/{family}`: a new record from a body shaped like a GET's answer (translated
 * fields beside the others, in `language` or the default one). A new episode joins its
 * season; every two-sided link gets its other side.
 *
 * @example
 * const { uuid, changes } = createRecord(draft, 'episodes', { title: 'Pilot', season: href, duration: 2_700_000 });
 */
export function createRecord(draft: Draft, name: FamilyName, body: unknown, now = writeTime()): WriteOutcome {
  const family = familyOf(name);
  if (name === 'overview')
    throw new HttpError(
      409,
      `The catalog has its overview ('${draft.catalog.overview.uuid}') and holds only one; change it with PATCH ` +
        `/api/v1/overview`,
    );
  const split = splitBody(family, bodyObject(body, `a new ${family.singular}`));
  refuseServerFields(split);
  const edit: Edit = { draft, now, conflicts: [] };
  const uuid = randomUUID();
  let record: Row = {
    uuid,
    href: hrefOf(name, uuid),
    ...withoutNullFields(split.own),
    created_at: now,
    updated_at: now,
  };
  if (name === 'episodes') record = joinSeason(edit, uuid, record);
  edit.draft.setRecord(name, uuid, record);
  keepLinks(edit, name, uuid, undefined, record);
  let language: string | undefined;
  if (family.translation) {
    language = languageOf(edit, split.language);
    edit.draft.setTranslation(name, uuid, language, {
      [family.translation.parentKey]: uuid,
      language,
      ...withoutNullFields(split.translated),
    });
  }
  return staged(edit, { family: name, uuid, ...(language ? { language } : {}) });
}

/**
 * `PATCH /api/v1/{family}/{uuid}`: a JSON Merge Patch of the record as a GET answers it. Its
 * translated fields change the translation in `language` (the default when absent), which is
 * created when the record has none in it. An episode moved to another season leaves the old
 * one's numbering and chain and joins the new one's, unless the patch places it itself.
 */
export function patchRecord(
  draft: Draft,
  name: FamilyName,
  uuid: string,
  body: unknown,
  now = writeTime(),
): WriteOutcome {
  const family = familyOf(name);
  const patch = bodyObject(body, `a merge patch of ${withArticle(family.singular)}`);
  if (Object.keys(patch).length === 0)
    throw new HttpError(400, 'Request body is an empty merge patch: name at least one field to change');
  const before = existing(draft, name, uuid);
  const split = splitBody(family, patch);
  refuseChangedServerFields(draft, name, uuid, before, split);
  const edit: Edit = { draft, now, conflicts: [] };
  let after: Row = { ...(mergePatch(before, split.own) as Row), uuid, href: before.href, updated_at: now };
  if (before.created_at !== undefined) after.created_at = before.created_at;
  if (name === 'episodes') after = moveEpisode(edit, uuid, before, after, split.own);
  edit.draft.setRecord(name, uuid, after);
  keepLinks(edit, name, uuid, before, after);
  let language: string | undefined;
  if (family.translation) {
    language = languageOf(edit, split.language);
    if (Object.keys(split.translated).length) {
      const current = draft.translation(name, uuid, language) ?? { [family.translation.parentKey]: uuid, language };
      edit.draft.setTranslation(name, uuid, language, mergePatch(current, split.translated) as Row);
    }
  }
  return staged(edit, { family: name, uuid, ...(language ? { language } : {}) });
}

/** An episode's season bookkeeping for a patch: a move between seasons, or a new duration. */
function moveEpisode(edit: Edit, uuid: string, before: Row, after: Row, patch: Row): Row {
  const places = ['episode_num', 'prev_episode', 'next_episode'].some((field) => field in patch);
  if (after.season !== before.season && !places) {
    leaveSeason(edit, uuid, before);
    const { episode_num: _n, prev_episode: _p, next_episode: _x, ...rest } = after;
    return joinSeason(edit, uuid, rest);
  }
  if (after.season === before.season && typeof after.duration === 'number' && typeof before.duration === 'number') {
    addToSeasonTotal(edit, after.season, after.duration - before.duration);
  }
  return after;
}

/**
 * `DELETE /api/v1/{family}/{uuid}`: the record and its translations go; lists that hold it
 * drop it and chains close over it (a deleted episode's season renumbers the rest). Any other
 * record still linking to it refuses the delete (409), naming each.
 */
export function deleteRecord(draft: Draft, name: FamilyName, uuid: string, now = writeTime()): WriteOutcome {
  if (name === 'overview')
    throw new HttpError(409, 'The catalog needs its overview: it can be changed (PATCH /api/v1/overview), not deleted');
  const record = existing(draft, name, uuid);
  const edit: Edit = { draft, now, conflicts: [] };
  if (name === 'episodes') leaveSeason(edit, uuid, record);
  detach(edit, name, uuid);
  for (const language of draft.languagesOf(name, uuid)) draft.setTranslation(name, uuid, language, null);
  return staged(edit, { family: name, uuid });
}

export { existing, staged, languageOf, type Edit };
