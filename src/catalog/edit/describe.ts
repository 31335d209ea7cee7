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
  const subject =
    change.language === undefined
      ? `${singular} '${change.uuid}'`
      : `the ${change.language} translation of ${singular} '${change.uuid}'`;
  if (change.after === null) return `removed ${subject}`;
  if (previous === undefined) return `added ${subject}`;
  return `changed ${subject}: ${changedFields(previous, change.after).join(', ') || 'nothing'}`;
}

/**
 * The overlay's writes as `npm run catalog -- changes` lists them: number, time, account,
 * request, then a line per row it changed; writes that no longer apply say why, and writes
 * data/ already holds (exported, the overlay not emptied yet) say so.
 *
 * @example
 * historyLines(replayWrites(base, writes, 'listing'));
 * // ["#1 2026-11-25T09:00:00.000Z ana: PATCH /api/v1/episodes/…", "    changed episode '…': title, updated_at"]
 */
export function historyLines({ applied, inData, skipped }: Pick<Replayed, 'applied' | 'inData' | 'skipped'>): string[] {
  const entries = [
    ...applied.map(({ write, previous }) => ({
      write,
      details: write.changes.map((change, n) => `    ${describeChange(change, previous[n])}`),
    })),
    ...inData.map((write) => ({
      write,
      details: ['    already in data/: exported, the next export empties it from the overlay'],
    })),
    ...skipped.map(({ write, reason }) => ({ write, details: [`    left out, no longer applies: ${reason}`] })),
  ].sort((a, b) => a.write.seq - b.write.seq);
  return entries.flatMap(({ write, details }) => [
    `#${write.seq} ${write.at} ${write.account.username}: ${write.request}`,
    ...details,
  ]);
}

/**
 * What is said of writes that no longer apply, the same at boot, on each reload of `npm run
 * dev` and by `npm run catalog -- export`: a line per write naming it and why, then what to do.
 *
 * @example
 * staleWritesReport(replayWrites(base, writes, 'boot').skipped);
 * // "catalog write 8 (PATCH /api/v1/actors/… by ana at …) no longer applies and is left out:
 * //  actor '…' in actors.json is not …\n…"
 */
export function staleWritesReport(skipped: Replayed['skipped']): string {
  const them = skipped.length === 1 ? 'it' : 'them';
  return [
    ...skipped.map(
      ({ write, reason }) =>
        `catalog write ${write.seq} (${write.request} by ${write.account.username} at ${write.at}) no longer ` +
        `applies and is left out: ${reason}`,
    ),
    `see ${them} with  npm run catalog -- changes ; make ${them} again through the API if still wanted; npm run ` +
      `catalog -- export refuses to lose ${them} unless given --drop-stale`,
  ].join('\n');
}
