import type { Row } from './draft.ts';
import { hrefOf, uuidIn } from '../href.ts';
import { amend, closeChains, type Edit } from './links.ts';

const seasonUuid = (href: unknown) => (typeof href === 'string' ? uuidIn(href, 'seasons') : undefined);

/** The other episodes of the season at `href`, as staged. */
function episodesOf(edit: Edit, href: string, except: string): { uuid: string; row: Row }[] {
  return edit.draft
    .linking('episodes', 'season', href)
    .filter((uuid) => uuid !== except)
    .map((uuid) => ({ uuid, row: edit.draft.record('episodes', uuid)! }));
}

/** Adds `delta` ms to a season's `duration_total`, where it keeps one. */
export function addToSeasonTotal(edit: Edit, href: unknown, delta: number): void {
  const uuid = seasonUuid(href);
  if (!uuid || delta === 0) return;
  amend(edit, 'seasons', uuid, (season) =>
    typeof season.duration_total === 'number' ? { ...season, duration_total: season.duration_total + delta } : season,
  );
}

/**
 * An episode joining its season, as `npm run new` adds one: numbered after the last unless
 * it brings a number, chained after the episode numbered before it (taking its place in a
 * chain that runs on into the next season) unless it brings its own links, and counted in the
 * season's total. Returns the episode with what it was given.
 *
 * @example
 * const joined = joinSeason(edit, uuid, { season: href, duration: 2_700_000 });
 */
export function joinSeason(edit: Edit, uuid: string, episode: Row): Row {
  const href = episode.season;
  if (!seasonUuid(href) || !edit.draft.record('seasons', seasonUuid(href)!)) return episode;
  const others = episodesOf(edit, href as string, uuid);
  const joined = { ...episode };
  joined.episode_num ??= Math.max(0, ...others.map(({ row }) => Number(row.episode_num) || 0)) + 1;
  const own = hrefOf('episodes', uuid);
  const last =
    joined.prev_episode === undefined &&
    joined.next_episode === undefined &&
    others.find(({ row }) => row.episode_num === Number(joined.episode_num) - 1);
  if (last) {
    const following = last.row.next_episode;
    if (typeof following === 'string' && following !== own) {
      joined.next_episode = following;
      amend(edit, 'episodes', uuidIn(following, 'episodes')!, (row) => ({ ...row, prev_episode: own }));
    }
    amend(edit, 'episodes', last.uuid, (row) => ({ ...row, next_episode: own }));
    joined.prev_episode = last.row.href;
  }
  if (typeof joined.duration === 'number') addToSeasonTotal(edit, href, joined.duration);
  return joined;
}

/**
 * An episode leaving its season (deleted, or moved to another): its neighbours in the chain
 * link to each other, the episodes numbered after it move up one, and the season's total
 * drops by its duration.
 */
export function leaveSeason(edit: Edit, uuid: string, episode: Row): void {
  closeChains(edit, 'episodes', uuid);
  const href = episode.season;
  if (typeof href !== 'string') return;
  const number = Number(episode.episode_num);
  for (const { uuid: other, row } of episodesOf(edit, href, uuid)) {
    if (typeof row.episode_num === 'number' && row.episode_num > number)
      amend(edit, 'episodes', other, (r) => ({ ...r, episode_num: (r.episode_num as number) - 1 }));
  }
  if (typeof episode.duration === 'number') addToSeasonTotal(edit, href, -episode.duration);
}
