import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registered } from './helpers/accounts-app.ts';
import { tokenWithRole } from './helpers/admin.ts';
import { caller, type Json } from './helpers/curator-calls.ts';
import { openStream, type EventStream } from './helpers/event-stream.ts';
import { startApp, type TestServer } from './helpers/http.ts';

// Classroom mode: a student's feed and stream carry its own sandbox writes and resets, marked as
// its own; no one else ever sees them, by page, by stream or by GraphQL.

const app: TestServer = await startApp({ CLASSROOM: 'on', CHANGE_HEARTBEAT_SECONDS: '1' });
const [ana, bia] = [await registered(app.url, 'ana'), await registered(app.url, 'bia')];
const curator = await tokenWithRole(app, 'MAINTAINER', 'teacher');
const admin = await tokenWithRole(app, 'ADMIN', 'head');
const readers: Record<string, string | undefined> = { ana, bia, curator, admin, anonymous: undefined };
const auth = (token: string | undefined): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {});

async function feed(token: string | undefined, since: string) {
  const response = await app.get(`/api/v1/changes?since=${since}&limit=1000`, auth(token));
  assert.is(response.status, 200);
  return { version: response.headers.get('catalog-version')!, body: (await response.json()) as Json };
}

const location = async (token: string, name: string) => {
  const made = await caller(app, token)('POST', '/api/v1/locations', { name });
  assert.is(made.status, 201, JSON.stringify(made.body));
  return String(made.body.uuid);
};

test("a student's writes and reset reach its own feed and stream alone; a shared write reaches everyone after", async () => {
  const since = (await feed(undefined, 'now')).version;
  const streams: Record<string, EventStream> = {};
  for (const [name, token] of Object.entries(readers))
    streams[name] = await openStream(`${app.url}/api/v1/changes?since=${since}`, auth(token));
  const own = await location(ana, 'Ana’s secret cove');
  await streams.ana!.next(2);
  assert.ok(streams.ana!.events.every((event) => JSON.parse(event.data).sandbox === true));
  assert.ok(streams.ana!.events.some((event) => JSON.parse(event.data).uuid === own));
  const reset = await caller(app, ana)('DELETE', '/api/v1/sandbox');
  assert.is(reset.status, 204);
  const [, , resetEvent] = await streams.ana!.next(3);
  assert.equal(JSON.parse(resetEvent!.data).action, 'reset');
  // A shared write: the next thing every other reader is shown, so nothing of Ana's came before it.
  const shared = await location(curator, 'The public pier');
  for (const [name, stream] of Object.entries(streams)) {
    const events = await stream.next(name === 'ana' ? 5 : 2);
    const mine = events.filter((event) => JSON.parse(event.data).sandbox);
    assert.is(mine.length, name === 'ana' ? 3 : 0, `${name}: ${events.map((event) => event.data).join('\n')}`);
    assert.ok(
      events.slice(-2).every((event) => JSON.parse(event.data).uuid === shared),
      name,
    );
    if (name !== 'ana')
      assert.ok(
        !events.some((event) => event.data.includes('secret cove') || JSON.parse(event.data).uuid === own),
        name,
      );
  }
  for (const stream of Object.values(streams)) stream.close();
  // The same by page, and by GraphQL: a reset forgot the writes it dropped, so from before it Ana is shown the reset alone.
  for (const [name, token] of Object.entries(readers)) {
    const { body } = await feed(token, since);
    const changes = body.changes as Json[];
    assert.equal(
      changes.filter((change) => change.sandbox).map((change) => change.action),
      name === 'ana' ? ['reset'] : [],
      name,
    );
    assert.ok(!changes.some((change) => change.uuid === own && !change.sandbox), name);
    const query = 'query ($since: String) { changes(since: $since, limit: 1000) { changes { uuid sandbox action } } }';
    const answer = await caller(app, token ?? '')(
      'POST',
      '/api/graphql',
      { query, variables: { since } },
      token ? {} : { Authorization: '' },
    );
    const listed = ((answer.body.data as Json).changes as Json).changes as Json[];
    assert.is(listed.filter((change) => change.sandbox).length, name === 'ana' ? 1 : 0, `GraphQL, ${name}`);
  }
});

test("a student's version names its sandbox; another student's cursor shows nothing of the first", async () => {
  const before = await feed(bia, 'now');
  await location(ana, 'Another cove');
  const anaNow = await feed(ana, 'now');
  const biaNow = await feed(bia, 'now');
  assert.is.not(anaNow.version, biaNow.version, 'a sandbox write changes the student’s version only');
  assert.is(biaNow.version, before.version);
  // Bia holding Ana's cursor: Ana's place in her own sandbox is no place in Bia's; nothing of Ana's is listed.
  const crossed = await app.get(`/api/v1/changes?since=${anaNow.version}`, auth(bia));
  const text = await crossed.text();
  assert.not.match(text, 'Another cove');
  assert.ok([200, 410].includes(crossed.status), text);
  const streamed = await openStream(`${app.url}/api/v1/changes?since=${before.version}&include=records`, auth(bia));
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.equal(streamed.events, [], 'nothing of Ana’s reaches Bia’s stream');
  streamed.close();
});

test.after(() => app.close());
test.run();
