import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openStore } from '../src/accounts/open.ts';
import { changeRole } from '../src/accounts/admin.ts';
import { createLogger } from '../src/config/logger.ts';
import { accountOptions } from '../src/parts.ts';
import { registered } from './helpers/accounts-app.ts';
import { tokenWithRole } from './helpers/admin.ts';
import { caller, type Json } from './helpers/curator-calls.ts';
import { startApp } from './helpers/http.ts';
import { byFastPath, rawGet, type RawAnswer } from './helpers/raw-get.ts';
import { headersOf } from './helpers/wire.ts';

const app = await startApp({ CLASSROOM: 'on' });
const maintainer = await tokenWithRole(app, 'MAINTAINER', 'editor');
const [student, other] = [await registered(app.url, 'fastown1'), await registered(app.url, 'fastown2')];
const as = (token?: string): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {});
const json = (answer: RawAnswer) => JSON.parse(answer.body.toString()) as Json & Json[];
const [first, second] = json(await rawGet(app.url, '/api/v1/locations?size=2'));
const path = `/api/v1/locations/${String(first!.uuid)}`;

/** Two reads of `url` by `token`: Koa's answer (which the fast path learns), then the next one's. */
async function twice(url: string, token?: string): Promise<[RawAnswer, RawAnswer]> {
  const koa = await rawGet(app.url, url, as(token));
  return [koa, await rawGet(app.url, url, as(token))];
}

test("a student's repeated read of its sandbox is replayed by the fast path, with Koa's headers and bytes", async () => {
  assert.is((await caller(app, student)('PATCH', path, { name: 'Mine' })).status, 200);
  const [koa, fast] = await twice(path, student);
  assert.not.ok(byFastPath(koa), 'the first read after the write: Koa');
  assert.ok(byFastPath(fast), 'the next: the fast path');
  assert.is(json(fast).name, 'Mine');
  assert.equal(headersOf(fast), headersOf(koa));
  assert.equal(fast.body, koa.body);
  assert.is(headersOf(fast)['cache-control'], 'private, no-cache');
  // Its ETag is a 304 for the student alone.
  const tag = headersOf(fast).etag!;
  const revalidated = await rawGet(app.url, path, { ...as(student), 'If-None-Match': tag });
  assert.is(revalidated.status, 304);
  assert.ok(byFastPath(revalidated));
  assert.is((await rawGet(app.url, path, { ...as(other), 'If-None-Match': tag })).status, 200);
});

test('everyone else is answered the shared catalog at the same URL, by Koa or the fast path', async () => {
  for (const token of [undefined, other, maintainer]) {
    const answers = await twice(path, token);
    for (const answer of answers) assert.is(json(answer).name, first!.name, `${token ? 'signed in' : 'anonymous'}`);
    assert.ok(byFastPath(answers[1]));
  }
  // And the student is still answered its own, though the shared answer is known for the URL now.
  assert.is(json(await rawGet(app.url, path, as(student))).name, 'Mine');
});

test("the student's next write, a curator's write and a reset each end the replay of what it read before", async () => {
  const list = '/api/v1/locations?size=2';
  const names = (answer: RawAnswer) => json(answer).map((record) => record.name);
  assert.equal(names((await twice(list, student))[1]), ['Mine', second!.name]);
  assert.is((await caller(app, student)('PATCH', path, { name: 'Mine again' })).status, 200);
  for (const answer of await twice(list, student)) assert.equal(names(answer), ['Mine again', second!.name]);
  const shared = `/api/v1/locations/${String(second!.uuid)}`;
  assert.is((await caller(app, maintainer)('PATCH', shared, { name: 'Changed for all' })).status, 200);
  for (const answer of await twice(list, student)) assert.equal(names(answer), ['Mine again', 'Changed for all']);
  assert.is((await caller(app, student)('DELETE', '/api/v1/sandbox')).status, 204);
  for (const answer of await twice(list, student)) assert.equal(names(answer), [first!.name, 'Changed for all']);
  for (const answer of await twice(path, student)) assert.is(json(answer).name, first!.name);
});

test('an account promoted to MAINTAINER reads the shared catalog, from Koa and the fast path alike, its sandbox kept', async () => {
  const token = await registered(app.url, 'fastown3');
  assert.is((await caller(app, token)('PATCH', path, { name: 'Before promotion' })).status, 200);
  assert.is(json((await twice(path, token))[1]).name, 'Before promotion');
  // As `npm run accounts -- role fastown3 MAINTAINER` does it, while the server runs.
  const store = await openStore(accountOptions(app.config).store, createLogger({ level: 'silent', format: 'text' }));
  await changeRole(store, 'user_fastown3', 'MAINTAINER').finally(() => store.close());
  // The server sees the accounts file change within a moment; until then it may answer the sandbox.
  for (const deadline = Date.now() + 10_000; json(await rawGet(app.url, path, as(token))).name !== first!.name;) {
    assert.ok(Date.now() < deadline, 'the promoted account still reads its sandbox');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const answers = [...(await twice(path, token)), await rawGet(app.url, path, as(token))];
  for (const answer of answers) assert.is(json(answer).name, first!.name);
  assert.ok(answers.some(byFastPath), 'the fast path answers it too');
  assert.not.ok(
    'cache-control' in headersOf(answers[2]!) && headersOf(answers[2]!)['cache-control']!.includes('private'),
  );
  // Its sandbox is still there: GET /api/v1/sandbox lists its change.
  const changes = await caller(app, token)('GET', '/api/v1/sandbox');
  assert.is((changes.body as Json).writes, 1);
});

test.after(() => app.close());
test.run();
