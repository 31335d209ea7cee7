import { Agent, request } from 'node:http';
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dataFile, startApp } from './helpers/http.ts';

const server = await startApp();
const actor = String((await dataFile('actors.json'))[0]!.uuid);
const episode = String((await dataFile('episodes.json'))[0]!.uuid);
const agent = new Agent({ keepAlive: true, maxSockets: 8 });

const FAMILIES = ['actors', 'characters', 'episodes', 'seasons', 'locations', 'soundtracks', 'games', 'overview'];
const PARAMETERS = [
  'page',
  'size',
  'sort',
  'order',
  'language',
  'first_name',
  'gender',
  'birth_date',
  'nicknames',
  'duration',
  'season',
  'name',
  'platforms',
  'title',
  'release_date',
  'character',
];

/** Bytes that tend to break parsers: operators, bad escapes, controls, long and non-ASCII text. */
const garbage = fc.oneof(
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.constantFrom(
    '%',
    '%zz',
    '%E0%A4%A',
    '%00',
    '%FF%FE',
    '%C0%AF',
    '%2e%2e%2f',
    '..%2f..%2f',
    '\u00e9',
    '%F0%9F%92%A9',
    ';',
    '&&&',
    '==',
    '=!',
    '!*',
    '!:',
    ':',
    '::',
    '>=',
    '<',
    ',,,',
    'a::b::c',
    '1e999',
    '-0',
    'NaN',
    '99999999999999999999',
    '2024-02-30',
    '0x10',
    '%20',
    '+',
    '*%',
    '[]',
    '{}',
    'null',
    'true',
  ),
  fc.nat({ max: 9000 }).map((n) => 'x'.repeat(n)),
  fc.integer().map(String),
);

const pathArb = fc.oneof(
  fc.constantFrom(...FAMILIES).map((f) => `/api/v1/${f}`),
  fc.tuple(fc.constantFrom(...FAMILIES), garbage).map(([f, g]) => `/api/v1/${f}/${g}`),
  garbage.map((g) => `/api/v1/actors/${actor}/socials/${g}`),
  garbage.map((g) => `/api/v1/episodes/${episode}/translations/${g}`),
  garbage.map((g) => `/api/v1/overview/translations/${g}`),
  fc.constantFrom(
    `/api/v1/actors/${actor.toUpperCase()}`,
    `/api/v1/actors/${actor}/socials/random`,
    '/api//v1//actors',
    '/api/v1/actors/',
    '/api/v1/%2e%2e/actors',
    '/api/v1/episodes/random/translations',
  ),
  garbage.map((g) => `/api/${g}`),
);

const queryArb = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...PARAMETERS), garbage), garbage), { maxLength: 6 })
  .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));

/** One raw request; resolves with the status, Content-Type and body text. */
function send(path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; type?: string; body: string }>((resolve, reject) => {
    const req = request(server.url + path, { agent, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('10,000 malformed requests: no 5xx, every error in the one shape', async () => {
  const requests = fc.sample(
    fc.record({
      path: pathArb,
      query: queryArb,
      language: fc.option(
        garbage.map((g) =>
          decodeURIComponentSafe(g)
            .replace(/[^\x20-\x7e]/g, '')
            .slice(0, 200),
        ),
        { nil: undefined },
      ),
    }),
    { numRuns: 10_000, seed: 7 },
  );
  let checked = 0;
  const failures: string[] = [];
  const queue = [...requests];
  const worker = async () => {
    for (let next = queue.pop(); next; next = queue.pop()) {
      const path = next.query ? `${next.path}?${next.query}` : next.path;
      const shown = path.length > 120 ? `${path.slice(0, 120)}… (${path.length} chars)` : path;
      const answer = await send(path, next.language === undefined ? {} : { 'Accept-Language': next.language });
      checked++;
      if (answer.status >= 500) failures.push(`${answer.status} ${shown}`);
      if (answer.status < 400) continue;
      try {
        const body = JSON.parse(answer.body);
        const ok =
          answer.type === 'application/json' &&
          body.code === answer.status &&
          typeof body.message === 'string' &&
          typeof body.timestamps === 'string' &&
          typeof body.url === 'string' &&
          typeof body.method === 'string';
        if (!ok) failures.push(`bad shape ${answer.status} ${shown}: ${answer.body.slice(0, 120)}`);
      } catch {
        failures.push(`not JSON ${answer.status} ${shown}: ${answer.body.slice(0, 120)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  assert.is(checked, 10_000);
  assert.equal(failures.slice(0, 10), []);
});

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

test.after(async () => {
  agent.destroy();
  await server.close();
});
test.run();
