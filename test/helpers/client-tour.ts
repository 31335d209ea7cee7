import { createCatalogClient, type CatalogClient, type Schema } from '../../clients/typescript/src/index.ts';

// A program a reader of docs/clients.md would write with the typed client, for
// test/typed-client.test.ts, which type-checks it with tsc and runs it against the compiled
// server: in every family a filtered list, a record by uuid, a random one and (translated
// families) a translation; a sign-up and a sign-in; a maintainer's write.

/** What the tour read of one family, for the test to check against the data files. */
export interface FamilyVisit {
  /** The uuids of the filtered list, in order. */
  listed: string[];
  /** The record read by uuid (the list's first). */
  byUuid: string;
  random: string;
  /** The language of the translation read, when the family is translated. */
  translation?: string;
}

/** What the tour did. */
export interface TourReport {
  families: Record<string, FamilyVisit>;
  overview: { title: string; translation: string };
  /** Two actors in CSV, as text. */
  csv: string;
  signedUp: Schema<'Registered'>['role'];
  signedIn: Schema<'Authenticated'>['role'];
  /** The record the maintainer created, as the server answered it, and as read back. */
  created: Schema<'Location'>;
  readBack: Schema<'Location'> | Schema<'ShapedLocation'>;
}

/** The data of an answer, or an Error naming the answer's error (the one error shape). */
function ok<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.error !== undefined || answer.data === undefined)
    throw new Error(`${answer.response.url} → ${answer.response.status}: ${JSON.stringify(answer.error)}`);
  return answer.data;
}

const uuid = (records: { uuid: string }[]) => records.map((record) => record.uuid);

/** Every family's filtered list, a record by uuid and a random one, with the translations where there are. */
async function readFamilies(catalog: CatalogClient): Promise<Record<string, FamilyVisit>> {
  const actors = ok(await catalog.GET('/api/v1/actors', { params: { query: { gender: ':1,2', sort: 'last_name' } } }));
  const actor = ok(await catalog.GET('/api/v1/actors/{uuid}', { params: { path: { uuid: actors[0]!.uuid } } }));
  const characters = ok(await catalog.GET('/api/v1/characters', { params: { query: { first_name: '*a', size: 5 } } }));
  const character = ok(
    await catalog.GET('/api/v1/characters/{uuid}', { params: { path: { uuid: characters[0]!.uuid } } }),
  );
  const episodes = ok(
    await catalog.GET('/api/v1/episodes', { params: { query: { duration: '>3000000', sort: 'duration,desc' } } }),
  );
  const path = { uuid: episodes[0]!.uuid };
  const episode = ok(await catalog.GET('/api/v1/episodes/{uuid}', { params: { path } }));
  const episodeIn = ok(
    await catalog.GET('/api/v1/episodes/{uuid}/translations/{language}', {
      params: { path: { ...path, language: 'pt-BR' } },
    }),
  );
  const seasons = ok(await catalog.GET('/api/v1/seasons', { params: { query: { season_num: '1::2' } } }));
  const season = ok(await catalog.GET('/api/v1/seasons/{uuid}', { params: { path: { uuid: seasons[0]!.uuid } } }));
  const seasonIn = ok(
    await catalog.GET('/api/v1/seasons/{uuid}/translations/{language}', {
      params: { path: { uuid: season.uuid, language: 'pt-BR' } },
    }),
  );
  const locations = ok(
    await catalog.GET('/api/v1/locations', { params: { query: { name: '*light', language: 'en-US' } } }),
  );
  const location = ok(
    await catalog.GET('/api/v1/locations/{uuid}', { params: { path: { uuid: locations[0]!.uuid } } }),
  );
  const locationIn = ok(
    await catalog.GET('/api/v1/locations/{uuid}/translations/{language}', {
      params: { path: { uuid: location.uuid, language: 'pt-BR' } },
    }),
  );
  const soundtracks = ok(await catalog.GET('/api/v1/soundtracks', { params: { query: { duration: 192000 } } }));
  const soundtrack = ok(
    await catalog.GET('/api/v1/soundtracks/{uuid}', { params: { path: { uuid: soundtracks[0]!.uuid } } }),
  );
  const games = ok(await catalog.GET('/api/v1/games', { params: { query: { platforms: 'PC', size: 10 } } }));
  const game = ok(await catalog.GET('/api/v1/games/{uuid}', { params: { path: { uuid: games[0]!.uuid } } }));
  const gameIn = ok(
    await catalog.GET('/api/v1/games/{uuid}/translations/{language}', {
      params: { path: { uuid: game.uuid, language: 'pt-BR' } },
    }),
  );
  const random = {
    actors: ok(await catalog.GET('/api/v1/actors/random')),
    characters: ok(await catalog.GET('/api/v1/characters/random')),
    episodes: ok(await catalog.GET('/api/v1/episodes/random')),
    seasons: ok(await catalog.GET('/api/v1/seasons/random')),
    locations: ok(await catalog.GET('/api/v1/locations/random')),
    soundtracks: ok(await catalog.GET('/api/v1/soundtracks/random')),
    games: ok(await catalog.GET('/api/v1/games/random')),
  };
  return {
    actors: { listed: uuid(actors), byUuid: actor.uuid, random: random.actors.uuid },
    characters: { listed: uuid(characters), byUuid: character.uuid, random: random.characters.uuid },
    episodes: {
      listed: uuid(episodes),
      byUuid: episode.uuid,
      random: random.episodes.uuid,
      translation: episodeIn.language,
    },
    seasons: {
      listed: uuid(seasons),
      byUuid: season.uuid,
      random: random.seasons.uuid,
      translation: seasonIn.language,
    },
    locations: {
      listed: uuid(locations),
      byUuid: location.uuid,
      random: random.locations.uuid,
      translation: locationIn.language,
    },
    soundtracks: { listed: uuid(soundtracks), byUuid: soundtrack.uuid, random: random.soundtracks.uuid },
    games: { listed: uuid(games), byUuid: game.uuid, random: random.games.uuid, translation: gameIn.language },
  };
}

/**
 * The tour, against the server at `baseUrl`; `maintainer` names an account of role MAINTAINER
 * (made as `npm run accounts -- create` makes one). Throws on any answer that is an error.
 *
 * @example
 * const report = await clientTour('http://127.0.0.1:3000', { username: 'curator', password: '…' });
 */
export async function clientTour(
  baseUrl: string,
  maintainer: { username: string; password: string },
): Promise<TourReport> {
  const catalog = createCatalogClient({ baseUrl });
  const families = await readFamilies(catalog);
  const overview = ok(await catalog.GET('/api/v1/overview'));
  const overviewIn = ok(
    await catalog.GET('/api/v1/overview/translations/{language}', { params: { path: { language: 'pt-BR' } } }),
  );
  const csv = ok(
    await catalog.GET('/api/v1/actors', { params: { query: { format: 'csv', size: 2 } }, parseAs: 'text' }),
  );
  const signedUp = ok(
    await catalog.POST('/api/v1/auth/register', {
      body: {
        first_name: 'Iris',
        last_name: 'Tide',
        username: 'iris_tide',
        email: 'iris@example.org',
        password: 'a long passphrase',
      },
    }),
  );
  const signedIn = ok(
    await catalog.POST('/api/v1/auth/authenticate', { body: { username: 'iris_tide', password: 'a long passphrase' } }),
  );
  const { token } = ok(await catalog.POST('/api/v1/auth/authenticate', { body: maintainer }));
  const curator = createCatalogClient({ baseUrl, token });
  const created = ok(
    await curator.POST('/api/v1/locations', {
      body: { name: 'Old Cannery', description: 'Written by the typed client', language: 'en-US' },
    }),
  );
  const readBack = ok(await catalog.GET('/api/v1/locations/{uuid}', { params: { path: { uuid: created.uuid } } }));
  return {
    families,
    overview: { title: overview.title, translation: overviewIn.language },
    csv,
    signedUp: signedUp.role,
    signedIn: signedIn.role,
    created,
    readBack,
  };
}
