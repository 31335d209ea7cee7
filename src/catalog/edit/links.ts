import { FAMILIES, type Family, type FamilyName, type FieldInfo } from '../families.ts';
import { hrefOf, uuidIn } from '../href.ts';
import type { Problem } from '../types.ts';
import type { Draft, Row } from './draft.ts';

/** A draft and the moment of the write: every record a write changes gets it as `updated_at`. */
export interface Edit {
  draft: Draft;
  now: string;
  /** Links the write cannot keep in step, named for the 409. */
  conflicts: Problem[];
}

const hrefsIn = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value)
      ? value.filter((v): v is string => typeof v === 'string')
      : [];

/** Changes another record of the draft as a consequence of the write (its `updated_at` too). */
export function amend(edit: Edit, name: FamilyName, uuid: string, change: (row: Row) => Row): void {
  const row = edit.draft.record(name, uuid);
  if (row) edit.draft.setRecord(name, uuid, { ...change(row), updated_at: edit.now });
}

/** `row` without `field`. */
const without = (row: Row, field: string): Row =>
  Object.fromEntries(Object.entries(row).filter(([key]) => key !== field));

/** `row` with `field` set to `value`, or without it for undefined or an empty list. */
const withField = (row: Row, field: string, value: unknown): Row =>
  value === undefined || (Array.isArray(value) && value.length === 0)
    ? without(row, field)
    : { ...row, [field]: value };

function conflict(edit: Edit, name: FamilyName, uuid: string, path: string, message: string): void {
  edit.conflicts.push({ file: FAMILIES.get(name)!.file, uuid, path, kind: 'conflict', message });
}

/** Makes record `href` (of `target`) link back to `own` in `inverse`. */
function linkBack(
  edit: Edit,
  target: Family,
  inverse: FieldInfo,
  href: string,
  own: string,
  from: { name: FamilyName; uuid: string; field: string },
): void {
  const uuid = uuidIn(href, target.name);
  const row = uuid && edit.draft.record(target.name, uuid);
  if (!uuid || !row) return; // a dangling link is the reference check's to name
  const current = row[inverse.name];
  if (inverse.list) {
    if (!hrefsIn(current).includes(own))
      amend(edit, target.name, uuid, (r) => withField(r, inverse.name, [...hrefsIn(current), own]));
  } else if (current === undefined) {
    amend(edit, target.name, uuid, (r) => withField(r, inverse.name, own));
  } else if (current !== own) {
    conflict(
      edit,
      from.name,
      from.uuid,
      `/${from.field}`,
      `'${href}' already has ${inverse.name} '${String(current)}'; change that ${target.singular} first, or link ` +
        `to another`,
    );
  }
}

/** Makes record `href` (of `target`) stop linking to `own` in `inverse`. */
function unlinkBack(edit: Edit, target: Family, inverse: FieldInfo, href: string, own: string): void {
  const uuid = uuidIn(href, target.name);
  const row = uuid && edit.draft.record(target.name, uuid);
  if (!uuid || !row) return;
  const current = row[inverse.name];
  if (inverse.list && hrefsIn(current).includes(own))
    amend(edit, target.name, uuid, (r) =>
      withField(
        r,
        inverse.name,
        hrefsIn(current).filter((h) => h !== own),
      ),
    );
  else if (!inverse.list && current === own) amend(edit, target.name, uuid, (r) => without(r, inverse.name));
}

/**
 * After record `uuid` of `name` went from `before` to `after`, the other side of each of its
 * two-sided links follows (`x-inverse` in the schemas): a season lists the episodes that name
 * it, an actor and its character point at each other, `next_episode` and `prev_episode` agree.
 * A link whose other side already points elsewhere is a conflict, not a silent overwrite.
 *
 * @example
 * keepLinks(edit, 'episodes', uuid, undefined, created); // the season now lists the new episode
 */
export function keepLinks(
  edit: Edit,
  name: FamilyName,
  uuid: string,
  before: Row | undefined,
  after: Row | undefined,
): void {
  const own = hrefOf(name, uuid);
  for (const field of FAMILIES.get(name)!.fields.values()) {
    if (!field.relation || !field.inverse) continue;
    const target = FAMILIES.get(field.relation)!;
    const inverse = target.fields.get(field.inverse)!;
    const old = hrefsIn(before?.[field.name]);
    const now = hrefsIn(after?.[field.name]);
    for (const href of old) if (!now.includes(href)) unlinkBack(edit, target, inverse, href, own);
    for (const href of now)
      if (!old.includes(href)) linkBack(edit, target, inverse, href, own, { name, uuid, field: field.name });
  }
}

/** Pairs of fields of one family that chain its records (`next_episode`/`prev_episode`), each pair once. */
function chains(family: Family): [FieldInfo, FieldInfo][] {
  const pairs: [FieldInfo, FieldInfo][] = [];
  for (const field of family.fields.values()) {
    const inverse = field.inverse && family.fields.get(field.inverse);
    if (field.relation === family.name && inverse && !field.list && !inverse.list && field.name < inverse.name)
      pairs.push([field, inverse]);
  }
  return pairs;
}

/**
 * Takes record `uuid` out of every chain it is in: its neighbours link to each other instead
 * (the episode before a deleted one now leads to the one after it).
 */
export function closeChains(edit: Edit, name: FamilyName, uuid: string): void {
  const record = edit.draft.record(name, uuid);
  if (!record) return;
  for (const [forward, backward] of chains(FAMILIES.get(name)!)) {
    const ahead = record[forward.name] as string | undefined;
    const behind = record[backward.name] as string | undefined;
    const aheadUuid = ahead && uuidIn(ahead, name);
    const behindUuid = behind && uuidIn(behind, name);
    if (aheadUuid) amend(edit, name, aheadUuid, (r) => withField(r, backward.name, behind));
    if (behindUuid) amend(edit, name, behindUuid, (r) => withField(r, forward.name, ahead));
    edit.draft.setRecord(name, uuid, without(without(record, forward.name), backward.name));
  }
}

/**
 * Removes record `uuid` of `name`, mending what only mirrors its own links: it leaves the
 * lists that hold it (a season's episodes) and the chains it is in (prev/next). Any other
 * record still linking to it (an episode's season, a character's actor, an actor's seasons)
 * is a conflict: deleting would leave that link dangling.
 *
 * @example
 * detach(edit, 'soundtracks', uuid); // a conflict per season that lists it
 */
export function detach(edit: Edit, name: FamilyName, uuid: string): void {
  const record = edit.draft.record(name, uuid);
  if (!record) return;
  closeChains(edit, name, uuid);
  const own = hrefOf(name, uuid);
  for (const field of FAMILIES.get(name)!.fields.values()) {
    const target = field.relation && field.inverse ? FAMILIES.get(field.relation)! : undefined;
    const inverse = target?.fields.get(field.inverse!);
    if (target && inverse?.list)
      for (const href of hrefsIn(record[field.name])) unlinkBack(edit, target, inverse, href, own);
  }
  edit.draft.setRecord(name, uuid, null);
  linksTo(edit, name, uuid);
}

/** Records that still link to record `uuid` of `name`: each one a conflict naming the record and the field. */
function linksTo(edit: Edit, name: FamilyName, uuid: string): void {
  const href = hrefOf(name, uuid);
  for (const family of FAMILIES.values()) {
    for (const field of family.fields.values()) {
      if (field.relation !== name) continue;
      for (const other of edit.draft.linking(family.name, field.name, href)) {
        if (family.name === name && other === uuid) continue;
        conflict(
          edit,
          name,
          uuid,
          '',
          `${family.singular} '${other}' links to it in ${field.name}; change or delete that ${family.singular} first`,
        );
      }
    }
  }
}
