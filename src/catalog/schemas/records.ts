import {
  RECORD_REQUIRED,
  count,
  date,
  gender,
  href,
  language,
  listOf,
  milliseconds,
  object,
  ordinal,
  recordFields,
  text,
  url,
  type JsonSchema,
} from './common.ts';

/**
 * The field contract of one family: its own fields (the family file) and, for translated
 * families, the fields that live only in the translation file.
 */
export interface FamilySchema {
  record: JsonSchema;
  translation?: JsonSchema;
}

const names = { first_name: text, last_name: text, nicknames: listOf(text) };

const social = object({ social: text, handle: text, url }, ['social', 'url']);

/** A translation row: the parent's uuid, its language and the translated fields. */
function translation(parentKey: string, fields: Record<string, JsonSchema>, required: string[]): JsonSchema {
  return object({ [parentKey]: { type: 'string' }, language, ...fields }, [parentKey, 'language', ...required]);
}

function record(family: string, fields: Record<string, JsonSchema>, required: string[] = [], images = true) {
  return object(recordFields(family, fields, { images }), [...RECORD_REQUIRED, ...required]);
}

const titled = { title: text, description: text };

export const SCHEMAS = {
  overview: {
    record: object(
      recordFields(
        'overview',
        { creators: listOf(text), languages: { ...listOf(language), minItems: 1 } },
        { images: false },
      ),
      [...RECORD_REQUIRED, 'languages'],
    ),
    translation: translation('overview_uuid', titled, ['title']),
  },
  actors: {
    record: record(
      'actors',
      {
        ...names,
        birth_date: date,
        death_date: date,
        gender,
        nationality: text,
        seasons: listOf(href('seasons')),
        awards: listOf(text),
        character: href('characters', 'actor'),
        socials: listOf(social),
      },
      ['first_name'],
    ),
  },
  characters: {
    record: record(
      'characters',
      { ...names, birth_date: date, death_date: date, gender, actor: href('actors', 'character') },
      ['first_name'],
    ),
  },
  episodes: {
    record: record('episodes', {
      duration: milliseconds,
      episode_num: ordinal,
      season: href('seasons', 'episodes'),
      next_episode: href('episodes', 'prev_episode'),
      prev_episode: href('episodes', 'next_episode'),
    }),
    translation: translation('episode_uuid', titled, ['title']),
  },
  seasons: {
    record: record('seasons', {
      season_num: ordinal,
      duration_total: milliseconds,
      release_date: date,
      budget: count,
      episodes: listOf(href('episodes', 'season')),
      soundtracks: listOf(href('soundtracks')),
      next_season: href('seasons', 'prev_season'),
      prev_season: href('seasons', 'next_season'),
    }),
    translation: translation('season_uuid', { ...titled, genres: listOf(text), trailers: listOf(url) }, ['title']),
  },
  locations: {
    record: record('locations', {}),
    translation: translation('location_uuid', { name: text, description: text }, ['name']),
  },
  soundtracks: {
    record: record(
      'soundtracks',
      { name: text, duration: milliseconds, artist: text, album: text, release_date: date, urls: listOf(url) },
      ['name'],
      false,
    ),
  },
  games: {
    record: record('games', {
      playtime: milliseconds,
      age_rating: text,
      platforms: listOf(text),
      stores: listOf(url),
      modes: listOf(text),
      publishers: listOf(text),
      developers: listOf(text),
      tags: listOf(text),
      release_date: date,
      website: url,
    }),
    translation: translation('game_uuid', { name: text, description: text, genres: listOf(text), trailer: url }, [
      'name',
    ]),
  },
} satisfies Record<string, FamilySchema>;
