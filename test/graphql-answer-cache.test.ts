import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { tokenWithRole } from './helpers/admin.ts';
import { dataFile, startApp } from './helpers/http.ts';

// Answers to GraphQL queries kept in the response cache of the catalog's version: repeated requests cost a lookup.
// No costly operation may wait (GRAPHQL_COSTLY_QUEUE=0), so a costly query sent by many at once is refused with 503
// to all but one unless its answer is kept; behind one proxy (TRUST_PROXY=1), so forwarded origins reach the answers.
const server = await startApp({ GRAPHQL_COSTLY_QUEUE: '0', TRUST_PROXY: '1' });
const maintainer = await tokenWithRole(server, 'MAINTAINER', 'cachecurator');
const [actor] = await dataFile('actors.json');
const [episode] = await dataFile('episodes.json');

/** Estimated at 4,051 (over the 1,000 that makes an operation costly, under the cost limit). */
const COSTLY = '{ seasons(size: 50) { items { title episodes { title season { title episodes { title } } } } } }';
const JSON_ACCEPT = 'application/graphql-response+json';

interface Answer {
  status: number;
  type: string | null;
  etag: string | null;
  cacheControl: string | null;
  bytes: string;
}

async function answerOf(response: Response): Promise<Answer> {
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    etag: response.headers.get('etag'),
    cacheControl: response.headers.get('cache-control'),
    bytes: await response.text(),
  };
}

/** POST /api/graphql with `body` sent as it is (a string) or as JSON. */
async function post(body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return answerOf(
    await fetch(`${server.url}/api/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: JSON_ACCEPT, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

async function get(query: string, headers: Record<string, string> = {}): Promise<Answer> {
  return answerOf(
    await fetch(`${server.url}/api/graphql?query=${encodeURIComponent(query)}`, {
      headers: { Accept: JSON_ACCEPT, ...headers },
    }),
  );
}

/** The same request `times` times in turn (an answer is kept from its second request on). */
async function repeated(times: number, ask: () => Promise<Answer>): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < times; i++) answers.push(await ask());
  return answers;
}

const data = (answer: Answer) => (JSON.parse(answer.bytes) as { data: Record<string, unknown> }).data;

test('a repeated query is answered byte for byte the same, from the cache: many at once take no costly turn', async () => {
  const answers = await repeated(3, () => post({ query: COSTLY }));
  for (const answer of answers) {
    assert.is(answer.status, 200);
    assert.is(answer.bytes, answers[0]!.bytes);
    assert.is(answer.cacheControl, 'no-store', 'a POST is never stored by HTTP caches');
    assert.is(answer.etag, null);
  }
  // Executed, all but one would be refused (the costly-gate test); kept, each is a lookup.
  const together = await Promise.all(Array.from({ length: 12 }, () => post({ query: COSTLY })));
  assert.equal(
    together.map((answer) => answer.status),
    Array(12).fill(200),
  );
  for (const answer of together) assert.is(answer.bytes, answers[0]!.bytes);
});

test('a request text over 8 KB (huge variables) is executed every time, never kept', async () => {
  // An unused variable pads the body past the bound; graphql-js ignores variables the operation does not declare.
  const body = { query: COSTLY, variables: { pad: 'x'.repeat(9000) } };
  const answers = await repeated(3, () => post(body));
  for (const answer of answers) assert.is(answer.status, 200);
  const together = await Promise.all(Array.from({ length: 12 }, () => post(body)));
  assert.ok(
    together.some((answer) => answer.status === 503),
    `executed each time, so some wait for the costly turn and are refused: ${together.map((a) => a.status).join(', ')}`,
  );
  for (const answer of together) if (answer.status === 200) assert.is(answer.bytes, answers[0]!.bytes);
});

test('a curator write is seen by the next answer: the new catalog version has an empty cache', async () => {
  const query = `{ actor(uuid: "${String(actor!.uuid)}") { nationality } }`;
  const before = await repeated(3, () => post({ query }));
  assert.is(before[2]!.bytes, before[0]!.bytes);
  const viaGet = await repeated(3, () => get(query));
  const patched = await fetch(`${server.url}/api/v1/actors/${String(actor!.uuid)}`, {
    method: 'PATCH',
    headers: { Authorization: `Bearer ${maintainer}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ nationality: 'Cached Nowhere' }),
  });
  assert.is(patched.status, 200, await patched.text());
  assert.equal(data(await post({ query })), { actor: { nationality: 'Cached Nowhere' } });
  const after = await get(query);
  assert.equal(data(after), { actor: { nationality: 'Cached Nowhere' } });
  assert.is.not(after.etag, viaGet[2]!.etag);
});

test('variables, language, forwarded origin, Accept and the method each pick their own answer', async () => {
  const sized = 'query ($size: Int) { actors(size: $size) { items { uuid } } }';
  const bySize = async (size: number) =>
    (data(await post({ query: sized, variables: { size } })).actors as { items: unknown[] }).items.length;
  for (let round = 0; round < 3; round++) {
    assert.is(await bySize(1), 1);
    assert.is(await bySize(2), 2);
  }

  const title = `{ episode(uuid: "${String(episode!.uuid)}") { title } }`;
  const titleIn = async (language: string) =>
    (data(await post({ query: title }, { 'Accept-Language': language })).episode as { title: string }).title;
  const english = await titleIn('en-US');
  const portuguese = await titleIn('pt-BR');
  assert.is.not(english, portuguese);
  for (let round = 0; round < 3; round++) {
    assert.is(await titleIn('en-US'), english);
    assert.is(await titleIn('pt-BR'), portuguese);
  }

  const picture = `{ actor(uuid: "${String(actor!.uuid)}") { thumbnail } }`;
  const thumbnailVia = async (host: string) =>
    (
      data(await post({ query: picture }, { 'X-Forwarded-Host': host, 'X-Forwarded-Proto': 'https' })).actor as {
        thumbnail: string;
      }
    ).thumbnail;
  for (let round = 0; round < 3; round++) {
    assert.is(await thumbnailVia('a.example'), `https://a.example${String(actor!.thumbnail)}`);
    assert.is(await thumbnailVia('b.example'), `https://b.example${String(actor!.thumbnail)}`);
    const direct = (data(await post({ query: picture })).actor as { thumbnail: string }).thumbnail;
    assert.is(direct, `${server.url}${String(actor!.thumbnail)}`);
  }

  for (let round = 0; round < 3; round++) {
    assert.match((await post({ query: title }, { Accept: 'application/json' })).type ?? '', /^application\/json/);
    assert.match((await post({ query: title })).type ?? '', /^application\/graphql-response\+json/);
    const viaGet = await get(title);
    assert.match(viaGet.cacheControl ?? '', /^public, max-age=\d+$/);
    assert.match(viaGet.etag ?? '', /^"[\w-]+"$/);
    assert.is((await post({ query: title })).cacheControl, 'no-store');
  }
});

test('a mutation is never answered from the cache: the same body three times makes three records', async () => {
  const body = {
    query: 'mutation ($input: LocationInput!) { create_location(input: $input) { uuid } }',
    variables: { input: { name: 'Cache Pier' } },
  };
  const made = await repeated(3, () => post(body, { Authorization: `Bearer ${maintainer}` }));
  const uuids = made.map((answer) => (data(answer).create_location as { uuid: string }).uuid);
  assert.is(new Set(uuids).size, 3, uuids.join(', '));
});

test('hostile variables: a __proto__ key is refused every time; toString and constructor are plain names', async () => {
  for (let round = 0; round < 3; round++) {
    const refused = await post('{"query":"{ overview { title } }","variables":{"__proto__":{"polluted":true}}}');
    assert.is(refused.status, 400);
    assert.match(refused.bytes, /__proto__/);
  }
  const query =
    'query ($toString: Int, $constructor: Int) { a: actors(size: $toString) { items { uuid } } b: actors(size: $constructor) { items { uuid } } }';
  const sizes = async (toString: number, constructor: number) => {
    const found = data(await post({ query, variables: { toString, constructor } })) as Record<
      string,
      { items: unknown[] }
    >;
    return [found.a!.items.length, found.b!.items.length];
  };
  for (let round = 0; round < 3; round++) {
    assert.equal(await sizes(1, 2), [1, 2]);
    assert.equal(await sizes(2, 1), [2, 1]);
  }
  // Nothing reached a prototype: an ordinary query still answers as it did.
  assert.is((await post({ query: '{ overview { title } }' })).status, 200);
});

test('many clients at once, in two languages, each get their own language, before and after the answers are kept', async () => {
  const query = `{ episode(uuid: "${String(episode!.uuid)}") { title season { title } } }`;
  for (let round = 0; round < 3; round++) {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => post({ query }, { 'Accept-Language': i % 2 ? 'pt-BR' : 'en-US' })),
    );
    const english = answers.filter((_, i) => i % 2 === 0).map((answer) => answer.bytes);
    const portuguese = answers.filter((_, i) => i % 2 === 1).map((answer) => answer.bytes);
    assert.is(new Set(english).size, 1);
    assert.is(new Set(portuguese).size, 1);
    assert.is.not(english[0], portuguese[0]);
  }
});

test('a kept answer still counts in the caller’s budget, with the limit headers and then 429', async () => {
  const limited = await startApp({ RATE_LIMIT: 'on', RATE_LIMIT_ANONYMOUS: '5' });
  try {
    const ask = () =>
      fetch(`${limited.url}/api/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"query":"{ overview { title } }"}',
      });
    const answers = [await ask(), await ask(), await ask(), await ask(), await ask(), await ask()];
    assert.equal(
      answers.map((answer) => answer.status),
      [200, 200, 200, 200, 200, 429],
    );
    assert.equal(
      answers.slice(0, 5).map((answer) => answer.headers.get('x-rate-limit-remaining')),
      ['4', '3', '2', '1', '0'],
    );
    const bodies = await Promise.all(answers.slice(0, 5).map((answer) => answer.text()));
    assert.is(new Set(bodies).size, 1);
  } finally {
    await limited.close();
  }
});

test.after(() => server.close());
test.run();
