import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isLocalPicture } from '../../src/catalog/pictures/references.ts';

/** One request as a server is asked it: path and request headers. */
export interface Request {
  path: string;
  headers: Record<string, string>;
  /** GET unless said. */
  method?: 'GET' | 'POST';
  body?: string;
}

/**
 * How our server is deployed for a run: (a) limits on, anonymous, the default; (b) the same
 * with a BASIC account's token; (c) limits shared through a local redis-server; (d) limits
 * off; `flood` a budget of one, so that every request but the first is a 429.
 */
export type Variant = 'a' | 'b' | 'c' | 'd' | 'flood';

/**
 * A benchmarked request: ours, and json-server's equivalent where it has one. `status` is
 * what ours must answer; `targets` are our minimum shares of the baseline's req/s, per
 * deployment it is measured in (a deployment without a target is measured for the record).
 */
export interface Scenario {
  name: string;
  status: number;
  targets: Partial<Record<Variant, number>>;
  /** Our minimum efficiency by CPU per request (the baseline's CPU µs ÷ ours), per deployment. */
  efficiency?: Partial<Record<Variant, number>>;
  ours: Request;
  jsonServer?: Request;
  /** What the baseline is: node:http replaying our bytes (the default), or the same GraphQL schema run by plain graphql-js. */
  baseline?: 'replay' | 'graphql-js';
  /** Our highest p99 latency in the default deployment (a), in ms. */
  maxP99Ms?: number;
}

type Row = Record<string, unknown>;

async function rows(dir: string, file: string): Promise<Row[]> {
  try {
    return JSON.parse(await readFile(join(dir, file), 'utf8')) as Row[];
  } catch {
    return [];
  }
}

const MISSING = '00000000-0000-4000-8000-000000000000';

/**
 * The scenarios of `npm run bench` for the catalog in `dir`, built from its own records so
 * that every request hits real data (the 304's ETag is filled in once ours has answered).
 *
 * @example
 * const scenarios = await scenariosFor('./data');
 * scenarios[0]; // { name: 'by uuid', ours: { path: '/api/v1/actors/…', headers: {} }, jsonServer: { path: '/actors/…', … } }
 */
export async function scenariosFor(dir: string): Promise<Scenario[]> {
  const [actor] = await rows(dir, 'actors.json');
  const episodes = await rows(dir, 'episodes.json');
  if (!actor || episodes.length === 0) throw new Error(`${dir} needs actors and episodes to benchmark`);
  const season = String(episodes[0]!.season);
  const titles = await rows(dir, 'translations/episodes_translations.json');
  const title = String(
    titles.find((t) => t.episode_uuid === episodes[0]!.uuid && t.language === 'en-US')?.title ?? 'signal',
  );
  const searchWords = title.toLowerCase().split(/\s+/).slice(0, 2).join(' ');
  const duration = Number(episodes[0]!.duration);
  const none = {};
  const graphql = { accept: 'application/graphql-response+json, application/json' };
  const post = (query: string): Request => ({
    path: '/api/graphql',
    method: 'POST',
    body: JSON.stringify({ query }),
    headers: { ...graphql, 'content-type': 'application/json' },
  });
  const page =
    '{ episodes(size: 10, sort: duration, order: desc) { items { uuid title duration season { title } } total_items } }';
  // An episode, its season and the season's episodes with the next of each; actors with the character each plays and their seasons.
  const nested = `{ episode(uuid: "${episodes[0]!.uuid}") { title season { title episodes { title next_episode { title } } } } actors(size: 10) { items { first_name character { first_name } seasons { title } } } }`;
  return [
    {
      name: 'by uuid',
      status: 200,
      targets: { a: 0.65, b: 0.55, c: 0.75, d: 0.6 },
      efficiency: { a: 0.9, b: 0.85 },
      ours: { path: `/api/v1/actors/${actor.uuid}`, headers: none },
      jsonServer: { path: `/actors/${actor.uuid}`, headers: none },
    },
    {
      name: 'first page',
      status: 200,
      targets: { a: 0.8, b: 0, c: 0, d: 0.55 },
      efficiency: { a: 0.85 },
      ours: { path: '/api/v1/actors', headers: none },
      jsonServer: { path: '/actors?_page=1&_limit=10', headers: none },
    },
    {
      name: 'filtered (2 conditions)',
      status: 200,
      targets: { a: 0, d: 0.5 },
      ours: { path: `/api/v1/episodes?season=${season.split('/').pop()}&duration=%3E%3D${duration}`, headers: none },
      jsonServer: {
        path: `/episodes?season=${encodeURIComponent(season)}&duration_gte=${duration}&_page=1&_limit=10`,
        headers: none,
      },
    },
    {
      name: 'sorted page',
      status: 200,
      targets: { a: 0, d: 0.5 },
      ours: { path: '/api/v1/soundtracks?sort=duration,desc&page=2', headers: none },
      jsonServer: { path: '/soundtracks?_sort=duration&_order=desc&_page=2&_limit=10', headers: none },
    },
    {
      name: 'translated (pt-BR)',
      status: 200,
      targets: { a: 0, d: 0.5 },
      ours: { path: '/api/v1/episodes?language=pt-BR', headers: none },
    },
    {
      name: 'search (2 words)',
      status: 200,
      targets: { a: 0, d: 0.5 },
      ours: { path: `/api/v1/episodes?q=${encodeURIComponent(searchWords)}`, headers: none },
    },
    {
      name: 'revalidation 304',
      status: 304,
      targets: { a: 0.7, b: 0, c: 0, d: 0.65 },
      efficiency: { a: 0.85 },
      ours: { path: `/api/v1/actors/${actor.uuid}`, headers: { 'if-none-match': '' } },
      jsonServer: { path: `/actors/${actor.uuid}`, headers: { 'if-none-match': '' } },
    },
    {
      name: 'not found 404',
      status: 404,
      targets: { a: 0, d: 0 },
      ours: { path: `/api/v1/actors/${MISSING}`, headers: none },
      jsonServer: { path: `/actors/${MISSING}`, headers: none },
    },
    {
      name: 'GraphQL GET, repeated',
      status: 200,
      targets: { a: 0.8 },
      efficiency: { a: 0.85 },
      ours: { path: `/api/graphql?query=${encodeURIComponent(page)}`, headers: graphql },
    },
    {
      name: 'GraphQL POST, repeated (baseline: plain graphql-js)',
      status: 200,
      baseline: 'graphql-js',
      targets: { a: 2 },
      ours: post(page),
    },
    {
      name: 'GraphQL nested, POST (baseline: plain graphql-js)',
      status: 200,
      baseline: 'graphql-js',
      targets: { a: 0 },
      maxP99Ms: 20,
      ours: post(nested),
    },
    ...(isLocalPicture(actor.thumbnail)
      ? [{ name: 'picture by URL', status: 200, targets: { a: 0.8 }, ours: { path: actor.thumbnail, headers: none } }]
      : []),
    {
      name: '429 flood',
      status: 429,
      targets: { flood: 0.6 },
      efficiency: { flood: 0.8 },
      ours: { path: `/api/v1/actors/${actor.uuid}?flood`, headers: none },
    },
  ];
}

/** json-server's database: the families it can serve, keyed by `uuid` (`--id uuid`). */
export async function jsonServerDb(dir: string): Promise<Record<string, Row[]>> {
  const db: Record<string, Row[]> = {};
  for (const family of ['actors', 'characters', 'episodes', 'seasons', 'locations', 'soundtracks', 'games'])
    db[family] = await rows(dir, `${family}.json`);
  return db;
}
