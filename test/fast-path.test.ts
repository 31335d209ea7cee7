import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { tokenWithRole } from './helpers/admin.ts';
import { dataFile, startApp } from './helpers/http.ts';
import { byFastPath, rawGet } from './helpers/raw-get.ts';
import { headersOf } from './helpers/wire.ts';

const server = await startApp();
const maintainer = await tokenWithRole(server, 'MAINTAINER', 'editor');
const [actor] = await dataFile('actors.json');
const [episode] = await dataFile('episodes.json');

const raw = (path: string, headers: Record<string, string> = {}) => rawGet(server.url, path, headers);

const cases: [string, Record<string, string>][] = [
  [`/api/v1/actors/${actor!.uuid}`, {}],
  ['/api/v1/actors?size=3&sort=birth_date,desc', { 'Accept-Encoding': 'gzip' }],
  ['/api/v1/episodes?size=20', { 'Accept-Encoding': 'br, gzip' }],
  ['/api/v1/episodes?size=2', { 'Accept-Language': 'pt-BR' }],
  ['/api/v1/episodes?size=2', { 'Accept-Language': 'es-ES;q=1, en;q=0.2' }],
  [`/api/v1/episodes/${episode!.uuid}/translations`, {}],
  ['/api/v1/overview', { 'Accept-Language': 'pt-BR', Origin: 'https://app.example.com' }],
];

test('a repeated read is answered by the fast path with the same status, headers and bytes as Koa', async () => {
  for (const [path, headers] of cases) {
    const once = await raw(path, headers);
    const first = await raw(path, headers);
    const second = await raw(path, headers);
    assert.not.ok(byFastPath(once), `${path}: asked once, answered by Koa and not kept`);
    assert.not.ok(byFastPath(first), `${path}: asked again, answered by Koa and kept`);
    assert.ok(byFastPath(second), `${path}: from then on, the fast path`);
    assert.is(second.status, first.status, path);
    assert.equal(headersOf(second), headersOf(first), path);
    assert.equal(second.body, first.body, path);
  }
});

test('client errors are replayed with the same status, headers and message, and a fresh timestamp', async () => {
  for (const path of [
    '/api/v1/actors/00000000-0000-4000-8000-000000000000',
    '/api/v1/actors?frist_name=Ana',
    '/api/v1/nothing?x=1',
  ]) {
    const once = await raw(path);
    const first = await raw(path);
    const second = await raw(path);
    assert.not.ok(byFastPath(once) || byFastPath(first), `${path}: remembered from its second request on`);
    assert.ok(byFastPath(second), path);
    assert.is(second.status, first.status);
    const { 'content-length': _a, ...firstHeaders } = headersOf(first);
    const { 'content-length': _b, ...secondHeaders } = headersOf(second);
    assert.equal(secondHeaders, firstHeaders, path);
    const { timestamps: t1, ...one } = JSON.parse(first.body.toString());
    const { timestamps: t2, ...two } = JSON.parse(second.body.toString());
    assert.equal(two, one, path);
    assert.ok(Date.parse(t2) >= Date.parse(t1));
    assert.is(headersOf(second)['content-length'], String(second.body.length));
  }
});

test('revalidation on the fast path: the same 304 as Koa sends', async () => {
  const path = '/api/v1/characters?size=2';
  const etag = headersOf(await raw(path)).etag!;
  // An Origin the server has not seen for this URL (answers vary on it) goes through Koa: Koa's own 304.
  const origin = { Origin: 'https://revalidate.example.com' };
  const koa = await raw(path, { 'If-None-Match': etag, ...origin });
  const fast = await raw(path, { 'If-None-Match': etag, ...origin });
  assert.not.ok(byFastPath(koa));
  assert.ok(byFastPath(fast));
  assert.is(fast.status, 304);
  assert.is(koa.status, 304);
  assert.is(fast.body.length, 0);
  assert.equal(headersOf(fast), headersOf(koa));
});

test('a new language header, a token or another encoding is not served a remembered variant', async () => {
  const path = '/api/v1/locations?size=1';
  await raw(path, { 'Accept-Language': 'pt-BR' });
  await raw(path, { 'Accept-Language': 'pt-BR' });
  const pt = await raw(path, { 'Accept-Language': 'pt-BR' });
  assert.ok(byFastPath(pt));
  const de = await raw(path, { 'Accept-Language': 'de-DE' });
  assert.not.ok(byFastPath(de), 'a header never seen goes to Koa');
  assert.is(headersOf(de)['content-language'], 'en-US');
  const withToken = await raw(path, { 'Accept-Language': 'pt-BR', Authorization: 'Bearer nonsense' });
  assert.is(withToken.status, 401, 'a token is always checked');
});

test('after the catalog is replaced, remembered answers are not replayed', async () => {
  const path = `/api/v1/actors/${actor!.uuid}`;
  await raw(path);
  await raw(path);
  const before = await raw(path);
  assert.ok(byFastPath(before));
  // A maintainer edits the actor: a new catalog version and new bytes, so a new tag.
  const edit = (nationality: unknown) =>
    fetch(server.url + path, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${maintainer}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ nationality }),
    });
  assert.is((await edit('Edited')).status, 200);
  try {
    const after = await raw(path);
    assert.not.ok(byFastPath(after));
    assert.is.not(headersOf(after).etag, headersOf(before).etag);
    assert.match(after.body.toString(), /"nationality":"Edited"/);
  } finally {
    assert.is((await edit(actor!.nationality)).status, 200);
  }
});

test('after a write, a URL asked before is answered anew by Koa once, then by the fast path', async () => {
  const path = `/api/v1/actors?size=20`;
  const patch = (nationality: unknown) =>
    fetch(server.url + `/api/v1/actors/${actor!.uuid}`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${maintainer}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ nationality }),
    });
  for (const nationality of ['Edited at once', actor!.nationality]) {
    await raw(path);
    await raw(path);
    assert.ok(byFastPath(await raw(path)), 'known before the write');
    assert.is((await patch(nationality)).status, 200);
    // Each on a connection of its own (node:http's default agent opens one per request in flight). The first
    // answer after the write is kept at once: the cache of the new version knows the URL was asked before.
    const answers = await Promise.all(Array.from({ length: 30 }, () => raw(path)));
    for (const answer of answers) assert.match(answer.body.toString(), `"nationality":${JSON.stringify(nationality)}`);
    assert.is(answers.filter((answer) => !byFastPath(answer)).length, 1, 'answered by Koa');
  }
});

test.after(() => server.close());
test.run();
