import { recordPath, socialHref, translationHref } from '../catalog/href.ts';
import type { Row, RowChange } from '../catalog/edit/draft.ts';
import { socialsOf, type Social } from '../catalog/socials.ts';
import type { Change, ChangeAction } from './types.ts';

/** What the feed needs of a kept write: when, its rows, and whether it marks new data or a reset. */
export interface WriteSeen {
  at: string;
  changes: readonly RowChange[];
  mark?: { data: string } | { reset: string };
}

const actionOf = (before: unknown, after: unknown): ChangeAction =>
  before === null || before === undefined ? 'created' : after === null ? 'deleted' : 'changed';

/** Each social network that `before` and `after` (an actor's rows) hold differently, by name. */
function socialChanges(before: Row | undefined, after: Row | null): { social: string; action: ChangeAction }[] {
  const named = (row: Row | null | undefined) =>
    new Map(socialsOf(row ?? {}).map((social: Social) => [String(social.social), JSON.stringify(social)]));
  const was = named(before);
  const now = named(after);
  const changed: { social: string; action: ChangeAction }[] = [];
  for (const [social, text] of now) {
    if (was.get(social) !== text) changed.push({ social, action: was.has(social) ? 'changed' : 'created' });
  }
  for (const social of was.keys()) if (!now.has(social)) changed.push({ social, action: 'deleted' });
  return changed;
}

const tombstone = (action: ChangeAction): Partial<Change> => (action === 'deleted' ? { deleted: true } : {});

/**
 * The changes one write made, in its rows' order: one per record or translation row, and one
 * per social network an actor's row gained, changed or lost (after that actor's own). A mark
 * is one change: `reloaded` or `reset`. `previous[i]` is the row `write.changes[i]` replaced,
 * as the catalog held it before the write (undefined: none, or not known).
 *
 * @example
 * changesOf({ at, changes: [{ family: 'actors', uuid, before: null, after }] }, [undefined]);
 * // [{ at, action: 'created', family: 'actors', uuid, href: '/api/v1/actors/…' }]
 */
export function changesOf(write: WriteSeen, previous: readonly (Row | undefined)[]): Change[] {
  const { at, mark } = write;
  if (mark) return 'data' in mark ? [{ at, action: 'reloaded', data: mark.data }] : [{ at, action: 'reset' }];
  return write.changes.flatMap((change, index) => {
    const action = actionOf(change.before, change.after);
    const { family, uuid, language } = change;
    if (language !== undefined) {
      return [
        { at, action, family, uuid, href: translationHref(family, uuid, language), language, ...tombstone(action) },
      ];
    }
    const own: Change = { at, action, family, uuid, href: recordPath(family, uuid), ...tombstone(action) };
    if (family !== 'actors' || action === 'deleted') return [own];
    const socials = socialChanges(previous[index], change.after).map(({ social, action }): Change => ({
      at,
      action,
      family,
      uuid,
      href: socialHref(uuid, social),
      social,
      ...tombstone(action),
    }));
    return [own, ...socials];
  });
}
