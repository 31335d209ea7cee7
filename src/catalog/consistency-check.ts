import type { FamilyName } from './families.ts';
import { hrefOf, isHrefInto } from './href.ts';
import type { Checked, CheckedFamily } from './reference-check.ts';
import type { Problem } from './types.ts';

const asList = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.filter((v): v is string => typeof v === 'string')
    : typeof value === 'string'
      ? [value]
      : [];

type Warn = (file: string, at: Checked, path: string | undefined, message: string) => void;

/** Both sides of every two-sided relation of the schemas (`x-inverse`) agree; nothing links to itself. */
function twoSided(checked: ReadonlyMap<FamilyName, CheckedFamily>, byHref: Map<string, Checked>, warn: Warn): void {
  for (const { family, records } of checked.values()) {
    // Only links that have another side, or can point to their own record, need a look.
    const relations = [...family.fields.values()].filter(
      (f) => f.relation && (f.inverse || f.relation === family.name),
    );
    if (relations.length === 0) continue;
    for (const at of records) {
      const own = at.record.href;
      if (typeof own !== 'string') continue;
      for (const field of relations) {
        for (const target of asList(at.record[field.name])) {
          if (target === own && field.relation === family.name) {
            warn(
              family.file,
              at,
              `/${field.name}`,
              `points to the record itself; remove it or point to another ${family.singular}`,
            );
            continue;
          }
          const other = field.inverse ? byHref.get(target) : undefined;
          // An href into another family, or a link back that is itself wrong, is an error of its own.
          if (!other || !isHrefInto(target, field.relation!)) continue;
          const back = asList(other.record[field.inverse!]);
          if (back.some((href) => !byHref.has(href) || !isHrefInto(href, family.name))) continue;
          if (!back.includes(own)) {
            const { file, fields } = checked.get(field.relation!)!.family;
            const verb = fields.get(field.inverse!)?.list ? 'list' : 'be';
            warn(
              family.file,
              at,
              `/${field.name}`,
              `'${target}' does not link back: its ${field.inverse} (${file}, record ${other.index}) should ` +
                `${verb} '${own}'`,
            );
          }
        }
      }
    }
  }
}

/**
 * Within each season: episode numbers 1 to n without repeats, one prev/next chain through them all, totals that add up.
 */
function seasons(checked: ReadonlyMap<FamilyName, CheckedFamily>, warn: Warn): void {
  const episodes = checked.get('episodes')!;
  const bySeason = new Map<string, Checked[]>();
  for (const at of episodes.records) {
    if (typeof at.record.season === 'string')
      bySeason.set(at.record.season, [...(bySeason.get(at.record.season) ?? []), at]);
  }
  for (const season of checked.get('seasons')!.records) {
    if (typeof season.record.uuid !== 'string') continue;
    const own = bySeason.get(hrefOf('seasons', season.record.uuid)) ?? [];
    const file = 'seasons.json';
    const numbers = own.map((at) => at.record.episode_num).filter((n): n is number => typeof n === 'number');
    const repeated = [...new Set(numbers.filter((n, i) => numbers.indexOf(n) !== i))];
    const missing = Array.from({ length: own.length }, (_, i) => i + 1).filter((n) => !numbers.includes(n));
    if (repeated.length || (numbers.length === own.length && missing.length)) {
      const parts = [
        ...(repeated.length ? [`repeats ${repeated.join(', ')}`] : []),
        ...(missing.length ? [`lacks ${missing.join(', ')}`] : []),
      ];
      warn(
        file,
        season,
        undefined,
        `its ${own.length} episodes should be numbered 1 to ${own.length} (episode_num ${parts.join(' and ')})`,
      );
    }
    const hrefs = new Set(own.map((at) => at.record.href));
    const starts = own.filter((at) => typeof at.record.prev_episode !== 'string' || !hrefs.has(at.record.prev_episode));
    const byHref = new Map(own.map((at) => [at.record.href, at]));
    let reached = 0;
    for (let at = starts[0], guard = 0; at && guard <= own.length; at = byHref.get(at.record.next_episode), guard++)
      reached++;
    if (own.length && (starts.length !== 1 || reached !== own.length)) {
      const reachedText = `${Math.min(reached, own.length)} of ${own.length} follow from the first`;
      warn(
        file,
        season,
        '/episodes',
        `its episodes' prev_episode/next_episode links do not make one chain: ${starts.length} have no previous ` +
          `episode in the season, ${reachedText}`,
      );
    }
    const durations = own.map((at) => at.record.duration);
    const total = season.record.duration_total;
    if (typeof total === 'number' && own.length && durations.every((d) => typeof d === 'number')) {
      const sum = (durations as number[]).reduce((a, b) => a + b, 0);
      if (sum !== total)
        warn(file, season, '/duration_total', `is ${total} but its episodes last ${sum} ms in all; write ${sum}`);
    }
  }
}

/**
 * Consistency across files, as warnings: the server can serve such data, but it says
 * something the data does not mean. Two-sided links agree, nothing links to itself, a
 * season's episodes are numbered 1 to n and chained by prev/next, and its totals add up.
 */
export function checkConsistency(checked: ReadonlyMap<FamilyName, CheckedFamily>): Problem[] {
  const problems: Problem[] = [];
  const warn: Warn = (file, at, path, message) => {
    const uuid = typeof at.record.uuid === 'string' ? at.record.uuid : undefined;
    problems.push({
      file,
      record: at.index,
      ...(uuid ? { uuid } : {}),
      ...(path ? { path } : {}),
      severity: 'warning',
      message,
    });
  };
  if ([...checked.values()].some((f) => f.unreadable)) return problems;
  // Only the families a two-sided link points into are looked up by href (the loader has
  // already refused an href that does not match its uuid).
  const targets = new Set(
    [...checked.values()].flatMap(({ family }) =>
      [...family.fields.values()].filter((f) => f.inverse).map((f) => f.relation!),
    ),
  );
  const byHref = new Map<string, Checked>();
  for (const name of targets) {
    for (const at of checked.get(name)!.records) if (typeof at.record.href === 'string') byHref.set(at.record.href, at);
  }
  twoSided(checked, byHref, warn);
  seasons(checked, warn);
  return problems;
}
