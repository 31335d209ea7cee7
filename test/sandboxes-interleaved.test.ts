import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { registered } from './helpers/accounts-app.ts';
import { tokenWithRole } from './helpers/admin.ts';
import { caller, graphqlData, type Answer, type Json } from './helpers/curator-calls.ts';
import { startApp, tempDir } from './helpers/http.ts';

// A model-based test of classroom sandboxes: random rounds of writes by three students (by REST
// and by GraphQL mutation alike) and a curator, each round's writes sent at once. After every
// round each student reads, by REST and by GraphQL, the shared catalog with its own changes,
// and an anonymous client the shared catalog alone: no answer cache, fast path or interleaving
// may show one caller's changes to another.
const app = await startApp({ CLASSROOM: 'on' }, await tempDir());
const curator = await tokenWithRole(app, 'MAINTAINER', 'teacher');
const admin = await tokenWithRole(app, 'ADMIN', 'principal');
const students = await Promise.all([0, 1, 2].map((n) => registered(app.url, `pupil${n}`)));
const test = suite('classroom sandboxes: random interleavings against a model');
test.after(async () => app.close());

/** Locations by uuid, as one caller should read them. */
type Names = Map<string, string>;
/** A student's own changes: a new name, or null for a location it deleted. */
type Changes = Map<string, string | null>;

type Step =
  | { who: number; op: 'create'; name: string; face: 'rest' | 'graphql' }
  | { who: number; op: 'rename'; pick: number; name: string; face: 'rest' | 'graphql' }
  | { who: number; op: 'delete'; pick: number }
  | { who: number; op: 'reset' }
  | { who: 'curator'; op: 'create' | 'rename'; pick: number; name: string };

const name = fc.constantFrom('Quay', 'Cais', 'Muelle', 'Pier 9', 'Old cannery');
const face = fc.constantFrom('rest' as const, 'graphql' as const);
const student = fc.constantFrom(0, 1, 2);
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ who: student, op: fc.constant('create' as const), name, face }),
  fc.record({ who: student, op: fc.constant('rename' as const), pick: fc.nat(), name, face }),
  fc.record({ who: student, op: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({ who: student, op: fc.constant('reset' as const) }),
  fc.record({
    who: fc.constant('curator' as const),
    op: fc.constantFrom('create' as const, 'rename' as const),
    pick: fc.nat(),
    name,
  }),
);
/** Rounds of steps sent at once, each caller at most once a round (so the model need not know their order). */
const rounds = fc
  .array(fc.array(step, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 })
  .map((all) => all.map((round) => round.filter((s, at) => round.findIndex((t) => t.who === s.who) === at)));

const graphql = (token: string | undefined, query: string, variables: Json = {}) =>
  graphqlData(app, token, query, variables);

const LIST = '{ locations(size: 100) { items { uuid name } } }';

/** The locations `token` reads by REST on the server at `url`. */
async function seenOn(url: string, token: string | undefined): Promise<Names> {
  const response = await fetch(`${url}/api/v1/locations?size=100`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  const rest = (await response.json()) as Json[];
  assert.is(response.status, 200, JSON.stringify(rest));
  return new Map(rest.map((location) => [String(location.uuid), String(location.name)]));
}

/** The locations `token` reads, by REST and by GraphQL (which must agree). */
async function seen(token: string | undefined): Promise<Names> {
  const names = await seenOn(app.url, token);
  const items = ((await graphql(token, LIST)).locations as { items: Json[] }).items;
  assert.equal(new Map(items.map((location) => [String(location.uuid), String(location.name)])), names);
  return names;
}

const viewOf = (shared: Names, changes: Changes): Names => {
  const view = new Map(shared);
  for (const [uuid, name] of changes) {
    if (name === null) view.delete(uuid);
    else view.set(uuid, name);
  }
  return view;
};

/** The uuid a step's `pick` points at among what its caller reads. */
const picked = (names: Names, pick: number) => [...names.keys()].sort()[pick % names.size]!;

const ok = (answer: Answer, status: number) => assert.is(answer.status, status, JSON.stringify(answer.body));

/** Sends one step; resolves with the uuid and name it changed (undefined for a reset). */
async function send(s: Step, view: Names): Promise<[string, string | null] | undefined> {
  const token = s.who === 'curator' ? curator : students[s.who]!;
  const call = caller(app, token);
  if (s.op === 'reset') {
    ok(await call('DELETE', '/api/v1/sandbox'), 204);
    return undefined;
  }
  if (s.op === 'delete') {
    const uuid = picked(view, s.pick);
    ok(await call('DELETE', `/api/v1/locations/${uuid}`), 204);
    return [uuid, null];
  }
  const viaGraphql = 'face' in s && s.face === 'graphql';
  if (s.op === 'create') {
    if (viaGraphql) {
      const data = await graphql(token, 'mutation ($n: String!) { create_location(input: { name: $n }) { uuid } }', {
        n: s.name,
      });
      return [String((data.create_location as Json).uuid), s.name];
    }
    const made = await call('POST', '/api/v1/locations', { name: s.name });
    ok(made, 201);
    return [String(made.body.uuid), s.name];
  }
  const uuid = picked(view, s.pick);
  if (viaGraphql)
    await graphql(token, 'mutation ($u: ID!, $n: String) { update_location(uuid: $u, patch: { name: $n }) { name } }', {
      u: uuid,
      n: s.name,
    });
  else ok(await call('PATCH', `/api/v1/locations/${uuid}`, { name: s.name }), 200);
  return [uuid, s.name];
}

/** Whether the latest write in the sandbox of `token` is left out: it no longer applies over the shared catalog. */
async function latestLeftOut(token: string): Promise<boolean> {
  const listed = await caller(app, token)('GET', '/api/v1/sandbox');
  ok(listed, 200);
  const lines = listed.body.changes as string[];
  const latest = lines.findLastIndex((line) => line.startsWith('#'));
  return lines.slice(latest).some((line) => line.includes('left out, no longer applies'));
}

/**
 * A sandbox write applies while its row is what it replaced (replayWrites): once the curator
 * changes a location, every student's earlier change to it is left out. A student's change to
 * it in the same round applies only if it came after the curator's; the sandbox says which.
 */
async function curatorWins(round: Step[], done: ([string, string | null] | undefined)[], changes: Changes[]) {
  const renamed = round.findIndex((s) => s.who === 'curator' && s.op === 'rename');
  if (renamed < 0) return;
  const uuid = done[renamed]![0];
  for (const [n, token] of students.entries()) {
    const own = round.findIndex((s) => s.who === n);
    const sameRound = own >= 0 && done[own]?.[0] === uuid;
    if (!sameRound || (await latestLeftOut(token))) changes[n]!.delete(uuid);
  }
}

test('every caller reads the shared catalog with its own changes, whatever the interleaving', async () => {
  await fc.assert(
    fc.asyncProperty(rounds, async (plan) => {
      ok(await caller(app, admin)('DELETE', '/api/v1/sandboxes'), 204);
      let shared = await seen(undefined);
      const changes: Changes[] = students.map(() => new Map());
      for (const round of plan) {
        const done = await Promise.all(
          round.map((s) => send(s, s.who === 'curator' ? shared : viewOf(shared, changes[s.who]!))),
        );
        round.forEach((s, at) => {
          const change = done[at];
          if (s.who === 'curator') shared = new Map(shared).set(change![0], change![1]!);
          else if (s.op === 'reset') changes[s.who] = new Map();
          else changes[s.who]!.set(change![0], change![1]!);
        });
        await curatorWins(round, done, changes);
        assert.equal(await seen(undefined), shared, 'anonymous reads the shared catalog');
        for (const [n, token] of students.entries())
          assert.equal(await seen(token), viewOf(shared, changes[n]!), `student ${n} reads its own view`);
      }
    }),
    {
      numRuns: 12,
      verbose: 2,
      // The failing assertion in full (the default report shortens it), then the default report, which fails the test.
      reporter: (r) => {
        if (!r.failed) return;
        console.error('FAILED', r.errorInstance);
        throw new Error(fc.defaultReportMessage(r));
      },
    },
  );
});

test('a reset of one sandbox leaves the others whole and numbers on, through a restart', async () => {
  const dir = await tempDir();
  let server = await startApp({ CLASSROOM: 'on' }, dir);
  try {
    const [first, second] = await Promise.all(['early', 'late'].map((name) => registered(server.url, name)));
    ok(await caller(server, first!)('POST', '/api/v1/locations', { name: 'First pier' }), 201);
    ok(await caller(server, second!)('POST', '/api/v1/locations', { name: 'Second pier' }), 201);
    ok(await caller(server, second!)('DELETE', '/api/v1/sandbox'), 204);
    // The write after a reset that dropped the last number taken.
    ok(await caller(server, first!)('POST', '/api/v1/locations', { name: 'Third pier' }), 201);
    await server.close();
    server = await startApp({ CLASSROOM: 'on' }, dir);
    const mine = [...(await seenOn(server.url, first!)).values()];
    assert.ok(mine.includes('First pier') && mine.includes('Third pier'), mine.join(', '));
    assert.not.ok([...(await seenOn(server.url, second!)).values()].includes('Second pier'));
    ok(await caller(server, second!)('POST', '/api/v1/locations', { name: 'Fourth pier' }), 201);
  } finally {
    await server.close();
  }
});

test.run();
