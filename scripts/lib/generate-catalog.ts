import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { generatedPicturePath } from '../../src/catalog/pictures/references.ts';
import { capitalize } from '../../src/lib/text.ts';

/** Sizes of a generated catalog; every family is sized from the number of actors. */
export interface GenerateOptions {
  actors: number;
  seed?: number;
}

type Row = Record<string, unknown>;

const FIRST = [
  'Ana',
  'Bruno',
  'Clara',
  'Diego',
  'Elena',
  'Felipe',
  'Gabriela',
  'Hugo',
  'Iris',
  'João',
  'Karin',
  'Lucas',
  'Marta',
  'Nuno',
  'Olívia',
  'Paulo',
  'Rita',
  'Sofia',
  'Tomás',
  'Vera',
  'Willow',
  'Zoë',
];
const LAST = [
  'Almeida',
  'Barros',
  'Costa',
  'Duarte',
  'Esteves',
  'Faria',
  'Gomes',
  'Harrow',
  'Ibsen',
  'Lima',
  'Moura',
  'Neves',
  'Okafor',
  'Pereira',
  'Quinn',
  'Rocha',
  'Santos',
  'Teixeira',
  'Valente',
  'Wójcik',
];
const NATIONS = [
  'Brazilian',
  'Portuguese',
  'Canadian',
  'Irish',
  'Spanish',
  'Mexican',
  'Scottish',
  'Angolan',
  'Chilean',
  'Norwegian',
];
const WORDS = [
  'signal',
  'tide',
  'harbour',
  'lantern',
  'fog',
  'island',
  'static',
  'echo',
  'shore',
  'beacon',
  'storm',
  'gull',
  'current',
  'relay',
  'silence',
  'frequency',
  'cliff',
  'anchor',
  'drift',
  'ember',
];
const PALAVRAS = [
  'sinal',
  'maré',
  'porto',
  'lanterna',
  'névoa',
  'ilha',
  'estática',
  'eco',
  'costa',
  'farol',
  'tempestade',
  'gaivota',
  'corrente',
  'relé',
  'silêncio',
  'frequência',
  'penhasco',
  'âncora',
  'deriva',
  'brasa',
];
const GENRES = ['Mystery', 'Drama', 'Science fiction', 'Thriller', 'Horror', 'Adventure'];
const GENEROS = ['Mistério', 'Drama', 'Ficção científica', 'Suspense', 'Terror', 'Aventura'];
const PLATFORMS = ['PC', 'Android', 'iOS', 'Console', 'Web'];
const TAGS = ['puzzle', 'narrative', 'exploration', 'co-op', 'retro', 'atmospheric', 'stealth'];

/** Mulberry32: a small deterministic generator, so `--seed` reproduces a catalog exactly. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Writes nothing: builds the files of a valid data directory of any size, deterministic for a
 * seed, with the shapes of the embedded catalog (relations, chains, translations in en-US and
 * pt-BR for every record and es-ES for every third, the pictures the server draws).
 *
 * @example
 * const files = generateCatalog({ actors: 1000, seed: 7 });
 * files.get('actors.json')!.length; // 1000
 */
export function generateCatalog({ actors: size, seed = 1 }: GenerateOptions): Map<string, Row[]> {
  const rand = random(seed);
  const int = (min: number, max: number) => min + Math.floor(rand() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const some = <T>(list: readonly T[], max: number): T[] => [
    ...new Set(Array.from({ length: int(0, max) }, () => pick(list))),
  ];
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(rand() * 16).toString(16)).join('');
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${pick(['8', '9', 'a', 'b'])}${hex(3)}-${hex(12)}`;
  const date = (from: number, to: number) =>
    `${int(from, to)}-${String(int(1, 12)).padStart(2, '0')}-${String(int(1, 28)).padStart(2, '0')}`;
  const stamp = () =>
    `${date(2022, 2024)}T${String(int(0, 23)).padStart(2, '0')}:${String(int(0, 59)).padStart(2, '0')}:00.000`;
  const phrase = (words: readonly string[], n: number) => Array.from({ length: n }, () => pick(words)).join(' ');
  const title = (words: readonly string[]) => capitalize(phrase(words, int(2, 4)));

  const families = {
    actors: size,
    characters: size,
    episodes: size,
    seasons: Math.ceil(size / 8),
    locations: Math.ceil(size * 0.75),
    soundtracks: size,
    games: Math.ceil(size / 7),
  };
  const ids = Object.fromEntries(
    Object.entries(families).map(([name, n]) => [name, Array.from({ length: n }, uuid)]),
  ) as Record<keyof typeof families, string[]>;
  const href = (family: keyof typeof families, i: number) => `/api/v1/${family}/${ids[family][i]}`;
  const common = (family: keyof typeof families, i: number, images = true) => ({
    uuid: ids[family][i],
    href: href(family, i),
    thumbnail: generatedPicturePath(family, ids[family][i]!, 0),
    ...(images ? { images: [generatedPicturePath(family, ids[family][i]!, 1)] } : {}),
    sources: [`https://wiki.example.com/${family}/${i}`],
    created_at: stamp(),
    updated_at: stamp(),
  });
  const person = () => ({
    first_name: pick(FIRST),
    last_name: pick(LAST),
    nicknames: some(WORDS, 2),
    gender: pick([0, 1, 2, 9]),
  });

  const files = new Map<string, Row[]>();
  const translations = (key: string, family: keyof typeof families, fields: (i: number, pt: boolean) => Row) =>
    ids[family].flatMap((id, i) => [
      { [key]: id, language: 'en-US', ...fields(i, false) },
      { [key]: id, language: 'pt-BR', ...fields(i, true) },
      ...(i % 3 === 0 ? [{ [key]: id, language: 'es-ES', ...fields(i, true) }] : []),
    ]);
  const seasonOf = (episode: number) => Math.floor(episode / 8);

  const series = uuid();
  const overview = {
    uuid: series,
    href: `/api/v1/overview/${series}`,
    creators: ['Generated'],
    languages: ['en-US', 'pt-BR', 'es-ES'],
    thumbnail: generatedPicturePath('overview', series, 0),
    sources: ['https://wiki.example.com/'],
    created_at: stamp(),
    updated_at: stamp(),
  };
  files.set('overview.json', [overview]);
  files.set(
    'actors.json',
    ids.actors.map((_, i) => ({
      ...common('actors', i),
      ...person(),
      birth_date: date(1940, 2005),
      ...(i % 50 === 0 ? { death_date: date(2006, 2024) } : {}),
      nationality: pick(NATIONS),
      seasons: [href('seasons', int(0, families.seasons - 1))],
      awards: some(['Golden Buoy', 'Harbour Prize', 'Signal Award'], 2),
      character: href('characters', i),
      socials:
        i % 4 === 0
          ? []
          : [
              {
                social: pick(['Mastodon', 'Instagram', 'Website']),
                handle: `@actor${i}`,
                url: `https://social.example.com/@actor${i}`,
              },
            ],
    })),
  );
  files.set(
    'characters.json',
    ids.characters.map((_, i) => ({
      ...common('characters', i),
      ...person(),
      birth_date: date(1900, 2010),
      actor: href('actors', i),
    })),
  );
  const durations = ids.episodes.map(() => int(40, 60) * 60000);
  files.set(
    'episodes.json',
    ids.episodes.map((_, i) => ({
      ...common('episodes', i),
      duration: durations[i],
      episode_num: (i % 8) + 1,
      season: href('seasons', seasonOf(i)),
      ...(i + 1 < families.episodes ? { next_episode: href('episodes', i + 1) } : {}),
      ...(i > 0 ? { prev_episode: href('episodes', i - 1) } : {}),
    })),
  );
  files.set(
    'seasons.json',
    ids.seasons.map((_, s) => {
      const episodes = ids.episodes.slice(s * 8, s * 8 + 8).map((_, k) => s * 8 + k);
      return {
        ...common('seasons', s),
        season_num: s + 1,
        duration_total: episodes.reduce((sum, i) => sum + durations[i]!, 0),
        release_date: date(2000, 2024),
        budget: int(1, 90) * 1_000_000,
        episodes: episodes.map((i) => href('episodes', i)),
        soundtracks: [href('soundtracks', s % families.soundtracks)],
        ...(s + 1 < families.seasons ? { next_season: href('seasons', s + 1) } : {}),
        ...(s > 0 ? { prev_season: href('seasons', s - 1) } : {}),
      };
    }),
  );
  files.set(
    'locations.json',
    ids.locations.map((_, i) => common('locations', i)),
  );
  files.set(
    'soundtracks.json',
    ids.soundtracks.map((_, i) => ({
      ...common('soundtracks', i, false),
      name: title(WORDS),
      duration: int(120, 400) * 1000,
      artist: `${pick(FIRST)} ${pick(LAST)}`,
      album: title(WORDS),
      release_date: date(1970, 2024),
      urls: [`https://music.example.net/${i}`],
    })),
  );
  files.set(
    'games.json',
    ids.games.map((_, i) => ({
      ...common('games', i),
      playtime: int(2, 80) * 3_600_000,
      age_rating: pick(['10+', '12+', '16+', '18+']),
      platforms: some(PLATFORMS, 3),
      stores: ['https://store.example.com/'],
      modes: some(['Single-player', 'Co-op', 'Multiplayer'], 2),
      publishers: [`${pick(LAST)} Interactive`],
      developers: [`${pick(LAST)} Studio`],
      tags: some(TAGS, 4),
      release_date: date(2005, 2024),
      website: `https://game${i}.example.com/`,
    })),
  );

  files.set('translations/overview_translations.json', [
    {
      overview_uuid: overview.uuid,
      language: 'en-US',
      title: 'Generated Series',
      description: 'A catalog generated for tests and benchmarks.',
    },
    {
      overview_uuid: overview.uuid,
      language: 'pt-BR',
      title: 'Série Gerada',
      description: 'Um catálogo gerado para testes e medições.',
    },
  ]);
  files.set(
    'translations/episodes_translations.json',
    translations('episode_uuid', 'episodes', (_, pt) => ({
      title: title(pt ? PALAVRAS : WORDS),
      description: phrase(pt ? PALAVRAS : WORDS, 12),
    })),
  );
  files.set(
    'translations/seasons_translations.json',
    translations('season_uuid', 'seasons', (_, pt) => ({
      title: title(pt ? PALAVRAS : WORDS),
      description: phrase(pt ? PALAVRAS : WORDS, 15),
      genres: some(pt ? GENEROS : GENRES, 3),
      trailers: ['https://video.example.com/trailer'],
    })),
  );
  files.set(
    'translations/locations_translations.json',
    translations('location_uuid', 'locations', (_, pt) => ({
      name: title(pt ? PALAVRAS : WORDS),
      description: phrase(pt ? PALAVRAS : WORDS, 10),
    })),
  );
  files.set(
    'translations/games_translations.json',
    translations('game_uuid', 'games', (_, pt) => ({
      name: title(pt ? PALAVRAS : WORDS),
      description: phrase(pt ? PALAVRAS : WORDS, 10),
      genres: some(pt ? GENEROS : GENRES, 2),
      trailer: 'https://video.example.com/game',
    })),
  );
  return files;
}

/** Writes generated files under `dir` (one JSON array per file, compact). */
export async function writeCatalog(dir: string, files: ReadonlyMap<string, Row[]>): Promise<void> {
  for (const [file, rows] of files) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), `${JSON.stringify(rows)}\n`);
  }
}
