import { family } from '../families.ts';
import type { Row, RowChange } from './draft.ts';
import type { Replayed } from './replay.ts';

/** The keys whose values differ between two rows, in `after`'s order, then those removed. */
function changedFields(before: Row, after: Row): string[] {
  const keys = [...Object.keys(after), ...Object.keys(before).filter((key) => !(key in after))];
  return keys.filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
}

/**
 * One line saying what a change does to the row it replaces (`previous`, undefined when
 * there was none): what `npm run catalog -- changes` and `export --dry-run` print.
 *
 * @example
 * describeChange({ family: 'episodes', uuid, language: 'pt-BR', before: '…', after: { … } }, previous);
 * // "changed the pt-BR translation of episode '…': title, description"
 */
export function describeChange(change: RowChange, previous: Row | undefined): string {
  const { singular } = family(change.family);
  const subject = change.language === undefined ? `${singular} '${change.uuid}'` : `the ${change.language} translation of ${singular} '${change.uuid}'`;
  if (change.after === null) return `removed ${subject}`;
  if (previous === undefined) return `added ${subject}`;
  return `changed ${subject}: ${changedFields(previous, change.after).join(', ') || 'nothing'}`;
}

/**
 * The overlay's writes as `npm run catalog -- changes` lists them: number, time, account,
 * request, then a line per row it changed; writes that no longer apply say why.
 *
 * @example
 * historyLines(replayWrites(base, writes, 'listing'));
 * // ["#1 2026-11-25T09:00:00.000Z ana: PATCH /api/v1/episodes/…", "    changed episode '…': title, updated_at"]
 */
export function historyLines({ applied, skipped }: Pick<Replayed, 'applied' | 'skipped'>): string[] {
  const entries = [
    ...applied.map(({ write, previous }) => ({ write, details: write.changes.map((change, n) => `    ${describeChange(change, previous[n])}`) })),
    ...skipped.map(({ write, reason }) => ({ write, details: [`    left out, no longer applies: ${reason}`] })),
  ].sort((a, b) => a.write.seq - b.write.seq);
  return entries.flatMap(({ write, details }) => [`#${write.seq} ${write.at} ${write.account.username}: ${write.request}`, ...details]);
}
