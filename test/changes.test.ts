import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { tokenWithRole } from './helpers/admin.ts';
import { caller, type Json } from './helpers/curator-calls.ts';
import { openStream } from './helpers/event-stream.ts';
import { startApp, type TestServer } from './helpers/http.ts';

// The change feed of the compiled server, as clients meet it: every kind of write, read back
// page by page from every cursor, as a stream, and with every hostile input we could think of.

const app: TestServer = await startApp({ CHANGE_HEARTBEAT_SECONDS: '1' });
const token = await tokenWithRole(app, 'MAINTAINER', 'feed');
const call = caller(app, token);

/** `GET path` anonymously: status, headers and parsed body. */
async function read(path: string, headers: Record<string, string> = {}) {
  const response = await app.get(path, headers);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text) as Json };
}

/** Every change from `since` on, following `Link` from page to page with `limit`. */
async function follow(since: string | undefined, limit: number): Promise<Json[]> {
  const found: Json[] = [];
  let path: string | undefined = `/api/v1/changes?limit=${limit}${since ? `&since=${since}` : ''}`;
  for (let pages = 0; path; pages++) {
    assert.ok(pages < 500, 'the feed never ends');
    const page = await read(path);
    assert.is(page.status, 200, JSON.stringify(page.body));
    const changes = page.body.changes as Json[];
    assert.ok(changes.length <= limit, `${changes.length} changes on a page of ${limit}`);
    found.push(...changes);
    const next = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
    assert.is(next !== undefined, page.body.more, 'Link names the next page exactly while more remain');
    path = next;
  }
  return found;
}

const versions: string[] = [];
const versionOf = (answer: { headers: Headers }) => {
  const version = answer.headers.get('catalog-version');
  assert.ok(version, 'every answer names the data version');
  return version!;
};

const actors = (await read('/api/v1/actors?size=5')).body as unknown as Json[];
const episodes = (await read('/api/v1/episodes?size=1')).body as unknown as Json[];
const actor = String(actors[0]!.uuid);
const episode = String(episodes[0]!.uuid);
let created = '';
let expected: Json[] = [];

test('every kind of write is one change, in order, with its href; a delete is a tombstone; the version moves with each', async () => {
  const start = await read('/api/v1/changes?since=now');
  versions.push(versionOf(start));
  assert.is(start.body.last, versionOf(start), 'since=now starts at the version now');
  const made = await call('POST', '/api/v1/locations', { name: 'Feed Harbour' });
  assert.is(made.status, 201, JSON.stringify(made.body));
  created = String(made.body.uuid);
  const steps: [string, string, unknown, Json[]][] = [
    [
      'PATCH',
      `/api/v1/locations/${created}`,
      { name: 'Feed Harbour, renamed' },
      [{ action: 'changed', family: 'locations', uuid: created }],
    ],
    [
      'PATCH',
      `/api/v1/episodes/${episode}/translations/pt-BR`,
      { title: 'Título do feed' },
      [{ action: 'changed', family: 'episodes', uuid: episode, language: 'pt-BR' }],
    ],
    [
      'POST',
      `/api/v1/actors/${actor}/socials`,
      { social: 'Feedsky', url: 'https://feedsky.example/@a', handle: '@a' },
      [
        { action: 'changed', family: 'actors', uuid: actor },
        { action: 'created', family: 'actors', uuid: actor, social: 'Feedsky' },
      ],
    ],
    [
      'DELETE',
      `/api/v1/actors/${actor}/socials/Feedsky`,
      undefined,
      [
        { action: 'changed', family: 'actors', uuid: actor },
        { action: 'deleted', family: 'actors', uuid: actor, social: 'Feedsky', deleted: true },
      ],
    ],
  ];
  versions.push(versionOf(made));
  expected = [{ action: 'created', family: 'locations', uuid: created }];
  for (const [method, path, body, changes] of steps) {
    const answer = await call(
      method,
      path,
      body,
      method === 'PATCH' ? { 'Content-Type': 'application/merge-patch+json' } : {},
    );
    assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    versions.push(versionOf(answer));
    expected.push(...changes);
  }
  const gone = await call('DELETE', `/api/v1/locations/${created}`);
  assert.is(gone.status, 204);
  versions.push(versionOf(gone));
  expected.push({ action: 'deleted', family: 'locations', uuid: created, deleted: true });
  assert.is(new Set(versions).size, versions.length, `each write gives a new version: ${versions.join(' ')}`);

  const listed = await follow(versions[0], 100);
  // A write changes rows: a record and its translation rows (a translated field lives in one),
  // and an actor's socials. Each expected change is listed, in order; nothing else is listed.
  const shown = listed.map(({ action, family, uuid, language, social, deleted }) =>
    JSON.stringify(JSON.parse(JSON.stringify({ action, family, uuid, language, social, deleted }))),
  );
  let at = 0;
  for (const change of expected) {
    const found = shown.indexOf(JSON.stringify(change), at);
    assert.ok(found >= at, `${JSON.stringify(change)} listed after change ${at}:\n${shown.join('\n')}`);
    at = found + 1;
  }
  const touched = new Set([created, episode, actor]);
  assert.ok(
    listed.every((change) => touched.has(String(change.uuid))),
    shown.join('\n'),
  );
  assert.ok(
    listed
      .filter((change) => change.language)
      .every((change) => String(change.href).endsWith(`/translations/${change.language}`)),
  );
  expected = listed;
  // Each href answers now, but those a later change deleted (the social, the location).
  const deleted = new Set(listed.filter((change) => change.deleted).map((change) => String(change.href)));
  for (const change of listed) {
    const answer = await app.get(String(change.href));
    const gone = deleted.has(String(change.href)) || change.uuid === created;
    assert.is(answer.status, gone ? 404 : 200, `GET ${change.href}`);
    await answer.arrayBuffer();
  }
  assert.is(listed.at(-1)!.cursor, versions.at(-1), 'the last change names the version after it');
});

test('from every cursor, page by page with any limit, the rest comes exactly once and in order', async () => {
  const all = await follow(undefined, 1000);
  assert.is(all[0]!.action, 'reloaded', 'the feed starts with the data the server booted with');
  for (const limit of [1, 2, 3, 100]) {
    assert.equal(await follow(undefined, limit), all, `limit ${limit}`);
    for (let i = 0; i < all.length; i++)
      assert.equal(await follow(String(all[i]!.cursor), limit), all.slice(i + 1), `after change ${i}, limit ${limit}`);
  }
  const now = await read('/api/v1/changes?since=now&limit=100000');
  assert.equal(now.body.changes, []);
  assert.is(now.body.more, false);
  assert.is(now.body.version, versionOf(now));
});

test('include=records: each change with what its href answers now; null once gone, none on a tombstone', async () => {
  const page = await read(`/api/v1/changes?since=${versions[0]}&include=records&language=pt-BR`);
  for (const change of page.body.changes as Json[]) {
    if (change.deleted) {
      assert.not.ok('record' in change, 'a tombstone has no record');
      continue;
    }
    if (change.uuid === created) {
      assert.is(change.record, null, 'a record deleted since is null');
      continue;
    }
    const language = change.language ? '' : '?language=pt-BR';
    const now = await read(`${change.href}${language}`);
    if (now.status === 404) assert.is(change.record, null);
    else assert.equal(change.record, now.body, `record of ${change.href}`);
  }
  const families = await read(`/api/v1/changes?family=episodes,locations`);
  assert.ok(
    (families.body.changes as Json[]).every((change) => ['episodes', 'locations'].includes(String(change.family))),
  );
  assert.ok((families.body.changes as Json[]).length >= 3);
});

test('hostile parameters are 400s naming the parameter; unknown and foreign cursors are 410s naming the current one', async () => {
  const forged = (text: string) => Buffer.from(text).toString('base64url');
  const refused: [string, number, string][] = [
    ['since=-1', 400, "'since'"],
    ['since=%00', 400, "'since'"],
    [`since=${'A'.repeat(200)}`, 400, "'since'"],
    [`since=${'A'.repeat(10_000)}`, 414, 'Request target'],
    ['since=now&since=now', 400, "'since'"],
    [`since=${forged('c0.1.0.0.a')}`, 400, "'since'"],
    [`since=${forged('c1.1.0.0.a.b')}`, 400, "'since'"],
    [`since=${forged('c1.01.0.0.a')}`, 400, "'since'"],
    [`since=${forged('c1.1.0.0.zzzzzz')}`, 410, 'never made'],
    [`since=${forged('c1.999999.0.0.')}`, 410, 'ahead'],
    ['limit=0', 400, "'limit'"],
    ['limit=abc', 400, "'limit'"],
    ['limit=1.5', 400, "'limit'"],
    ['limit=-3', 400, "'limit'"],
    ['limit=1&limit=2', 400, "'limit'"],
    ['family=__proto__', 400, "'family'"],
    ['family=toString', 400, "'family'"],
    ['family=', 400, "'family'"],
    ['include=everything', 400, "'include'"],
    ['language=xx-XX', 400, 'xx-XX'],
    ['toString=1', 400, "'toString'"],
    ['__proto__=1', 400, "'__proto__'"],
    ['constructor=1', 400, "'constructor'"],
  ];
  for (const [query, status, named] of refused) {
    const answer = await read(`/api/v1/changes?${query}`);
    assert.is(answer.status, status, `${query}: ${JSON.stringify(answer.body)}`);
    assert.is(answer.body.code, status);
    assert.match(String(answer.body.message), named, query.slice(0, 60));
    if (status === 410) {
      assert.match(String(answer.body.message), versionOf(answer), 'a 410 names the current cursor');
      assert.match(String(answer.body.message), 'from scratch');
    }
  }
  // However many digits a large limit has, it is served as the most a page holds.
  for (const limit of ['999999999', '2147483647', '9'.repeat(400)]) {
    const most = await read(`/api/v1/changes?limit=${limit}`);
    assert.is(most.status, 200, `limit of ${limit.length} digits`);
    assert.ok((most.body.changes as unknown[]).length <= 1000);
  }
  for (const [name, value] of [
    ['Last-Event-ID', 'not a cursor'],
    ['Last-Event-ID', '\tabc'],
    ['Last-Event-ID', 'x'.repeat(8000)],
  ] as const) {
    const stream = await openStream(`${app.url}/api/v1/changes`, { [name]: value });
    assert.is(stream.status, 400, `${name}: ${value.slice(0, 20)}`);
    assert.match(await stream.body(), 'Last-Event-ID');
  }
});

test('a stream: what was missed, then each write as it is made; Last-Event-ID resumes; comment lines keep it open', async () => {
  const stream = await openStream(`${app.url}/api/v1/changes?since=${versions[0]}`);
  assert.is(stream.status, 200);
  assert.is(stream.headers['content-type'], 'text/event-stream; charset=utf-8');
  assert.is(stream.headers['cache-control'], 'no-cache');
  assert.is(stream.headers['x-accel-buffering'], 'no');
  const missed = await stream.next(expected.length);
  assert.equal(
    missed.map((event) => JSON.parse(event.data).action),
    expected.map((change) => change.action),
  );
  assert.ok(missed.every((event) => event.event === 'change' && event.id === JSON.parse(event.data).cursor));
  const patched = await call(
    'PATCH',
    `/api/v1/locations/${(await read('/api/v1/locations?size=1')).body[0] ? '' : ''}`,
    {},
  );
  await patched;
  const location = ((await read('/api/v1/locations?size=1')).body as unknown as Json[])[0]!;
  const written = await call(
    'PATCH',
    `/api/v1/locations/${location.uuid}`,
    { name: 'Live Harbour' },
    {
      'Content-Type': 'application/merge-patch+json',
    },
  );
  assert.is(written.status, 200);
  // The rename changes the record and its translation row: two events, the last one at the write's version.
  const lives = (await stream.next(expected.length + 2)).slice(-2);
  const live = lives.at(-1)!;
  assert.ok(lives.every((event) => JSON.parse(event.data).uuid === location.uuid));
  assert.is(live.id, versionOf(written), "the last event's id is the version the write answered");
  await new Promise((resolve) => setTimeout(resolve, 2500));
  assert.ok(stream.comments.filter((line) => line === 'keep-alive').length >= 1, 'a comment line every second');
  stream.close();
  // Resumed after the first missed change: everything after it, nothing before.
  const resumed = await openStream(`${app.url}/api/v1/changes?since=now`, { 'Last-Event-ID': missed[0]!.id! });
  const rest = [...missed.slice(1), ...lives];
  assert.equal(
    (await resumed.next(rest.length)).map((event) => event.id),
    rest.map((event) => event.id),
  );
  resumed.close();
});

test('GraphQL answers the same feed as a query field, and names the data version in its extensions', async () => {
  const query = `query ($since: String) { changes(since: $since, limit: 3) { changes { cursor action href } last more version } }`;
  const answer = await call('POST', '/api/graphql', { query, variables: { since: versions[0] } });
  assert.is(answer.status, 200, JSON.stringify(answer.body));
  const page = (answer.body.data as Json).changes as Json;
  const rest = await read(`/api/v1/changes?since=${versions[0]}&limit=3`);
  assert.equal(
    (page.changes as Json[]).map((change) => change.cursor),
    (rest.body.changes as Json[]).map((change) => change.cursor),
  );
  assert.is(page.last, rest.body.last);
  assert.is((answer.body.extensions as Json).catalog_version, versionOf(answer));
  const bad = await call('POST', '/api/graphql', { query, variables: { since: 'nope' } });
  assert.match(JSON.stringify(bad.body.errors), "Argument 'since'");
  const info = await read('/api');
  assert.is(info.body.data_version, versionOf(info));
});

test('stream bounds: one address holds 8 streams, the rest are 429s in the error shape; no 500', async () => {
  // The streams of the tests before are gone once the server has seen their sockets close.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const opened = await Promise.all(
    Array.from({ length: 1000 }, () => openStream(`${app.url}/api/v1/changes?since=now`)),
  );
  const statuses = opened.map((stream) => stream.status);
  assert.is(statuses.filter((status) => status === 200).length, 8, statuses.join());
  // Past 8, the streams' cap (429); past the server's connections per address, its own refusal (503).
  for (const stream of opened.filter((one) => one.status !== 200)) {
    assert.ok([429, 503].includes(stream.status), String(stream.status));
    const refusal = JSON.parse(await stream.body()) as Json;
    assert.is(refusal.code, stream.status);
    assert.match(
      String(refusal.message),
      stream.status === 429 ? 'CHANGE_STREAMS_PER_ADDRESS' : 'MAX_CONNECTIONS_PER_ADDRESS',
    );
  }
  for (const stream of opened) stream.close();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const after = await openStream(`${app.url}/api/v1/changes?since=now`);
  assert.is(after.status, 200, 'closed streams free their places');
  after.close();
});

test.after(() => app.close());
test.run();
