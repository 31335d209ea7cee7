import { HttpError } from '../../lib/http-error.ts';
import { capitalize, withArticle } from '../../lib/text.ts';
import { FAMILIES, type FamilyName } from '../families.ts';
import { socialNamed, socialsOf, type Social } from '../socials.ts';
import { bodyObject, shown } from './body.ts';
import type { Draft, Row } from './draft.ts';
import { mergePatch } from './merge-patch.ts';
import { existing, staged, languageOf, writeTime, type Edit, type WriteOutcome } from './operations.ts';

/** The record's language that `asked` names (any case), or undefined. */
function held(draft: Draft, name: FamilyName, uuid: string, asked: string): string | undefined {
  return draft.languagesOf(name, uuid).find((language) => language.toLowerCase() === asked.toLowerCase());
}

/** A translation body: its fields, and the language it names; the parent's uuid may be repeated, not changed. */
function translationBody(
  name: FamilyName,
  uuid: string,
  body: unknown,
  what: string,
): { fields: Row; language: unknown } {
  const { parentKey } = FAMILIES.get(name)!.translation!;
  const { language, [parentKey]: parent, ...fields } = bodyObject(body, what);
  if (parent !== undefined && parent !== uuid)
    throw new HttpError(400, `/${parentKey}: is the record's uuid '${uuid}', the request says ${shown(parent)}`);
  return { fields, language };
}

/** The record's `updated_at` moves with any change to what belongs to it. */
function touch(edit: Edit, name: FamilyName, uuid: string, record: Row): void {
  edit.draft.setRecord(name, uuid, { ...record, updated_at: edit.now });
}

/**
 * `POST …/{uuid}/translations`: a translation in a language the record has none in (409 if it has).
 *
 * @example
 * createTranslation(draft, 'episodes', uuid, { language: 'pt-BR', title: 'O Sinal' });
 */
export function createTranslation(
  draft: Draft,
  name: FamilyName,
  uuid: string,
  body: unknown,
  now = writeTime(),
): WriteOutcome {
  const record = existing(draft, name, uuid);
  const { fields, language: asked } = translationBody(name, uuid, body, 'a translation');
  const edit: Edit = { draft, now, conflicts: [] };
  if (asked === undefined) throw new HttpError(400, "/language: missing required field 'language'");
  const language = languageOf(edit, asked);
  const already = held(draft, name, uuid, language);
  if (already)
    throw new HttpError(
      409,
      `${capitalize(FAMILIES.get(name)!.singular)} '${uuid}' has ${withArticle(already)} translation already; ` +
        `change it with PATCH …/translations/${already}`,
    );
  edit.draft.setTranslation(name, uuid, language, {
    [FAMILIES.get(name)!.translation!.parentKey]: uuid,
    language,
    ...fields,
  });
  touch(edit, name, uuid, record);
  return staged(edit, { family: name, uuid, language });
}

/** `PATCH …/{uuid}/translations/{language}`: a merge patch of one translation (404 if the record has none in it). */
export function patchTranslation(
  draft: Draft,
  name: FamilyName,
  uuid: string,
  asked: string,
  body: unknown,
  now = writeTime(),
): WriteOutcome {
  const record = existing(draft, name, uuid);
  const language = held(draft, name, uuid, asked);
  if (!language)
    throw new HttpError(404, `${capitalize(FAMILIES.get(name)!.singular)} '${uuid}' has no translation in '${asked}'`);
  const { fields, language: named } = translationBody(name, uuid, body, 'a merge patch of a translation');
  if (Object.keys(fields).length === 0 && named === undefined)
    throw new HttpError(400, 'Request body is an empty merge patch: name at least one field to change');
  if (named !== undefined && (typeof named !== 'string' || named.toLowerCase() !== language.toLowerCase())) {
    throw new HttpError(
      400,
      `/language: the translation is '${language}' (the URL names it), the request says ${shown(named)}`,
    );
  }
  const edit: Edit = { draft, now, conflicts: [] };
  edit.draft.setTranslation(name, uuid, language, mergePatch(draft.translation(name, uuid, language), fields) as Row);
  touch(edit, name, uuid, record);
  return staged(edit, { family: name, uuid, language });
}

/**
 * `DELETE …/{uuid}/translations/{language}`: any translation but the default language's, which every record needs.
 */
export function deleteTranslation(
  draft: Draft,
  name: FamilyName,
  uuid: string,
  asked: string,
  now = writeTime(),
): WriteOutcome {
  const record = existing(draft, name, uuid);
  const language = held(draft, name, uuid, asked);
  if (!language)
    throw new HttpError(404, `${capitalize(FAMILIES.get(name)!.singular)} '${uuid}' has no translation in '${asked}'`);
  if (language === draft.catalog.defaultLanguage) {
    throw new HttpError(
      409,
      `${language} is the default language: every ${FAMILIES.get(name)!.singular} needs its translation; change ` +
        `it with PATCH, or delete the record`,
    );
  }
  const edit: Edit = { draft, now, conflicts: [] };
  edit.draft.setTranslation(name, uuid, language, null);
  touch(edit, name, uuid, record);
  return staged(edit, { family: name, uuid });
}

/** `POST /api/v1/actors/{uuid}/socials`: a social network the actor is not on yet (409 if it is). */
export function createSocial(
  draft: Draft,
  uuid: string,
  body: unknown,
  now = writeTime(),
): WriteOutcome & { social: string } {
  const record = existing(draft, 'actors', uuid);
  const social = bodyObject(body, 'a social');
  const socials = socialsOf(record);
  if (typeof social.social === 'string' && socialNamed(record, social.social)) {
    throw new HttpError(
      409,
      `Actor '${uuid}' has a '${social.social}' social already; change it with PATCH …/socials/${social.social}`,
    );
  }
  const edit: Edit = { draft, now, conflicts: [] };
  edit.draft.setRecord('actors', uuid, { ...record, socials: [...socials, social], updated_at: now });
  return { ...staged(edit, { family: 'actors', uuid }), social: String(social.social) };
}

function existingSocial(record: Row, uuid: string, name: string): Social {
  const found = socialNamed(record, name);
  if (!found) throw new HttpError(404, `Actor '${uuid}' has no social '${name}'`);
  return found;
}

/** `PATCH /api/v1/actors/{uuid}/socials/{social}`: a merge patch of one social. */
export function patchSocial(
  draft: Draft,
  uuid: string,
  name: string,
  body: unknown,
  now = writeTime(),
): WriteOutcome & { social: string } {
  const record = existing(draft, 'actors', uuid);
  const current = existingSocial(record, uuid, name);
  const patch = bodyObject(body, 'a merge patch of a social');
  if (Object.keys(patch).length === 0)
    throw new HttpError(400, 'Request body is an empty merge patch: name at least one field to change');
  const changed = mergePatch(current, patch) as Social;
  const taken = typeof changed.social === 'string' ? socialNamed(record, changed.social) : undefined;
  if (taken && taken !== current) {
    throw new HttpError(409, `Actor '${uuid}' has a '${changed.social}' social already`);
  }
  const edit: Edit = { draft, now, conflicts: [] };
  edit.draft.setRecord('actors', uuid, {
    ...record,
    socials: socialsOf(record).map((s) => (s === current ? changed : s)),
    updated_at: now,
  });
  return { ...staged(edit, { family: 'actors', uuid }), social: String(changed.social) };
}

/** `DELETE /api/v1/actors/{uuid}/socials/{social}`. */
export function deleteSocial(draft: Draft, uuid: string, name: string, now = writeTime()): WriteOutcome {
  const record = existing(draft, 'actors', uuid);
  const current = existingSocial(record, uuid, name);
  const edit: Edit = { draft, now, conflicts: [] };
  const rest = socialsOf(record).filter((s) => s !== current);
  const { socials: _socials, ...without } = record;
  edit.draft.setRecord('actors', uuid, { ...(rest.length ? { ...record, socials: rest } : without), updated_at: now });
  return staged(edit, { family: 'actors', uuid });
}
