import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort } from '../scripts/bench/ports.ts';
import { Nginx } from '../scripts/lib/nginx.ts';
import { RedisServer } from '../scripts/lib/redis-server.ts';
import { get, post } from './helpers/accounts-app.ts';
import { tempDir, TEST_ENV } from './helpers/http.ts';
import { listeningUrl, ROOT, runScript, startServer } from './helpers/spawn.ts';

// The change feed of a cluster: three compiled instances sharing their catalog writes through
// one real redis-server, behind a real nginx running the shipped example
// docs/deploy/nginx-replicas.conf. A stream opened through nginx must see every write made on
// any instance, promptly (nginx must not buffer it), once and in order; a client that loses its
// stream must resume on any instance from its last event's id.

/**
 * docs/deploy/nginx-replicas.conf as shipped, but for two lines: the compose service's address
 * (`server replica:3000;`) becomes the instances' ports, and `listen 80;` a free loopback port.
 */
async function shippedSite(port: number, upstreams: number[]): Promise<string> {
  const example = await readFile(join(ROOT, 'docs/deploy/nginx-replicas.conf'), 'utf8');
  const replaced = (text: string, line: RegExp, by: string) => {
    assert.is(text.match(new RegExp(line, 'gm'))?.length, 1, `the example has one line ${line}`);
    return text.replace(line, by);
  };
  return replaced(
    replaced(example, /^( *)server replica:3000;$/m, upstreams.map((up) => `$1server 127.0.0.1:${up};`).join('\n')),
    /^( *)listen 80;$/m,
    `$1listen 127.0.0.1:${port};`,
  );
}

const redis = new RedisServer(await freePort(), await tempDir());
await redis.start();
// Configured as docs/scaling.md says a cluster must be.
const SHARED = {
  ...TEST_ENV,
  LOG_LEVEL: 'info',
  ACCOUNTS_STORE: 'redis',
  REDIS_URL: redis.url,
  JWT_SECRET: 'one secret that every instance of the change cluster shares',
  TRUST_PROXY: '1',
  PUBLIC_URL: 'https://catalog.example.org',
};

/** The families written below. */
const FAMILIES = ['actors', 'soundtracks', 'characters'] as const;
type Family = (typeof FAMILIES)[number];

/** Every process this suite started, stopped at the end or as soon as the setup fails. */
const servers: ReturnType<typeof startServer>[] = [];
const unused = await tempDir();
let nginx: Nginx | undefined;
async function stopAll(): Promise<void> {
  await nginx?.stop();
  for (const { child } of servers)
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  await redis.stop();
}

/** Starts an instance; its URL and port once it listens. */
function instance(): Promise<{ url: string; port: number }> {
  const server = startServer({ ...SHARED, ACCOUNTS_FILE: join(unused, `unused-${servers.length}.json`) });
  servers.push(server);
  return listeningUrl(server).then((url) => ({ url, port: Number(new URL(url).port) }));
}

/** The three instances' URLs, nginx's, a MAINTAINER's token, and six records of each family written. */
async function setUp(): Promise<{
  urls: string[];
  through: string;
  maintainer: string;
  picked: Map<Family, string[]>;
}> {
  const started = await Promise.allSettled([instance(), instance(), instance()]);
  const instances = started.map((one) => {
    if (one.status === 'rejected') throw one.reason;
    return one.value;
  });
  const port = await freePort();
  const upstreams = instances.map((i) => i.port);
  // SIGTERM: a graceful stop would wait for every stream still open.
  nginx = new Nginx(port, upstreams, { site: await shippedSite(port, upstreams), stopSignal: 'SIGTERM' });
  await nginx.start();
  const curator = await runScript(
    'scripts/accounts.ts',
    ['create', '--username', 'feed_curator', '--email', 'feed_curator@example.org', '--role', 'MAINTAINER'],
    { ...SHARED, ACCOUNT_PASSWORD: 'the feed curator password' },
  );
  if (curator.code !== 0) throw new Error(curator.stderr);
  const signedIn = await post(nginx.url, '/api/v1/auth/authenticate', {
    username: 'feed_curator',
    password: 'the feed curator password',
  });
  if (signedIn.status !== 200) throw new Error(`signing in: ${signedIn.status} ${JSON.stringify(signedIn.body)}`);
  const maintainer = String(signedIn.body.token);
  const picked = new Map<Family, string[]>();
  for (const family of FAMILIES) {
    const list = await get(nginx.url, `/api/v1/${family}?size=6`, maintainer);
    picked.set(
      family,
      (list.body as unknown as { uuid: string }[]).map((record) => record.uuid),
    );
  }
  return { urls: instances.map((i) => i.url), through: nginx.url, maintainer, picked };
}

const { urls, through, maintainer, picked } = await setUp().catch(async (error: Error) => {
  await stopAll();
  throw error;
});

/**
 * How long a change may take to reach every instance before the JSON feeds are compared, and
 * how long a test waits for an event before it says which never came: generous, so that a
 * loaded machine cannot fail them. The functional bound (a second) is asserted apart.
 */
const PROPAGATION_MS = 5000;
/** The bound: a write's change reaches a stream within a second of the write's 2xx answer. */
const EVENT_BOUND_MS = 1000;

/** Polls `check` every 50 ms for at most `ms`; true once it held. */
async function within(ms: number, check: () => Promise<boolean>): Promise<boolean> {
  for (const deadline = Date.now() + ms; ;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Change {
  cursor: string;
  at: string;
  action: string;
  family?: string;
  uuid?: string;
  href?: string;
}

/** One server-sent event as read, with when it was read (performance.now()). */
interface ReadEvent {
  id?: string;
  event?: string;
  data: string;
  readAt: number;
}

/** A stream of server-sent events read over node:http, split into events at blank lines as it comes. */
interface EventStream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Every byte read so far. */
  text(): string;
  events: ReadEvent[];
  /** The change events alone, parsed. */
  changes(): (Change & { id: string; readAt: number })[];
  /** Waits until `ready` holds (or `ms` passes: then false). */
  until(ready: () => boolean, ms?: number): Promise<boolean>;
  close(): void;
}

function openStream(url: string, headers: Record<string, string> = {}): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const asked = request(url, { headers: { Accept: 'text/event-stream', ...headers } }, (response) => {
      response.setEncoding('utf8');
      const events: ReadEvent[] = [];
      let text = '';
      let pending = '';
      let closed = false;
      const waiters = new Set<() => void>();
      response.on('data', (chunk: string) => {
        const readAt = performance.now();
        text += chunk;
        pending += chunk;
        for (let end = pending.indexOf('\n\n'); end >= 0; end = pending.indexOf('\n\n')) {
          const block = pending.slice(0, end);
          pending = pending.slice(end + 2);
          const event: ReadEvent = { data: '', readAt };
          let isEvent = false;
          for (const line of block.split('\n')) {
            if (line.startsWith('id: ')) [event.id, isEvent] = [line.slice(4), true];
            else if (line.startsWith('event: ')) [event.event, isEvent] = [line.slice(7), true];
            else if (line.startsWith('data: ')) [event.data, isEvent] = [event.data + line.slice(6), true];
          }
          if (isEvent) events.push(event);
        }
        for (const waiter of waiters) waiter();
      });
      response.on('close', () => {
        closed = true;
        for (const waiter of waiters) waiter();
      });
      resolve({
        status: response.statusCode!,
        headers: response.headers,
        text: () => text,
        events,
        changes: () =>
          events
            .filter((event) => event.event === 'change')
            .map((event) => ({ ...(JSON.parse(event.data) as Change), id: event.id!, readAt: event.readAt })),
        until: (ready, ms = PROPAGATION_MS) =>
          new Promise<boolean>((done) => {
            if (ready()) return done(true);
            const check = () => {
              if (!ready() && !closed) return;
              clearTimeout(timer);
              waiters.delete(check);
              done(ready());
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              done(ready());
            }, ms);
            waiters.add(check);
          }),
        close: () => asked.destroy(),
      });
    });
    asked.on('error', reject);
    asked.end();
  });
}

/** A GET over node:http with the headers exactly as given (fetch refuses some values a client may send). */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const asked = request(url, { headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    asked.on('error', reject);
    asked.end();
  });
}

let writes = 0;
/** A field of each family that a PATCH may set to any value of its kind, changing that record alone. */
const PATCHES: Record<Family, (n: number) => Record<string, unknown>> = {
  actors: (n) => ({ nationality: `Feed nationality ${n}` }),
  soundtracks: (n) => ({ artist: `Feed artist ${n}` }),
  characters: (n) => ({ nicknames: [`Feed nickname ${n}`] }),
};

interface Written {
  family: Family;
  uuid: string;
  /** performance.now() when the write's 2xx answer came. */
  answeredAt: number;
  /** The answer's Catalog-Version: the cursor after the write. */
  version: string;
  on: string;
}

/** PATCHes record `which` of `family` directly on `url` (merge patch, as a MAINTAINER); fails unless 200. */
async function write(url: string, family: Family, which = 0): Promise<Written> {
  const uuid = picked.get(family)![which]!;
  const n = ++writes;
  const response = await fetch(`${url}/api/v1/${family}/${uuid}`, {
    method: 'PATCH',
    headers: { Authorization: `Bearer ${maintainer}`, 'Content-Type': 'application/merge-patch+json' },
    body: JSON.stringify(PATCHES[family](n)),
  });
  const answeredAt = performance.now();
  const body = await response.text();
  assert.is(response.status, 200, `PATCH ${family}/${uuid} on ${url}: ${body}`);
  const version = response.headers.get('catalog-version');
  assert.ok(version, `the write's answer names its Catalog-Version`);
  return { family, uuid, answeredAt, version: version!, on: url };
}

/** The JSON feed of `url` after `since`, every page. */
async function feedOf(url: string, since: string): Promise<Change[]> {
  const changes: Change[] = [];
  for (let cursor = since; ;) {
    const answer = await get(url, `/api/v1/changes?since=${encodeURIComponent(cursor)}&limit=1000`, maintainer);
    assert.is(answer.status, 200, `${url}: ${JSON.stringify(answer.body)}`);
    const page = answer.body as unknown as { changes: Change[]; last: string; more: boolean };
    changes.push(...page.changes);
    if (!page.more) return changes;
    cursor = page.last;
  }
}

/** The version (Catalog-Version) of `url` now. */
async function versionOf(url: string): Promise<string> {
  const answer = await get(url, '/api/v1/changes?since=now', maintainer);
  const version = answer.headers.get('catalog-version');
  assert.ok(version, `${url} answers with a Catalog-Version`);
  assert.is(answer.body.version, version, 'the feed names the version its header names');
  return version!;
}

/** Every instance's version agrees (each has applied every write made so far); that version. */
async function settledVersion(): Promise<string> {
  let versions: string[] = [];
  const settled = await within(PROPAGATION_MS, async () => {
    versions = await Promise.all(urls.map(versionOf));
    return versions.every((version) => version === versions[0]);
  });
  assert.ok(settled, `every instance reaches the same version: ${versions.join(' ')}`);
  return versions[0]!;
}

const describe = (change: Pick<Change, 'action' | 'family' | 'uuid'>) =>
  `${change.action} ${change.family}/${change.uuid}`;

test('every instance hears of the catalog writes by Redis pub/sub: its channel has one subscriber per instance', async () => {
  // docs/scaling.md: a write through one instance is announced to the others; the 500 ms
  // polling is only for an announcement lost. An instance that never subscribed serves each
  // write (and each change to its streams) up to half a second late, and takes a cursor the
  // others gave meanwhile for one of another catalog.
  const client = new Redis(redis.url);
  try {
    const channels = (await client.pubsub('CHANNELS', '*overlay*')) as string[];
    assert.equal(channels.length, 1, `one channel announces the catalog writes: ${channels.join(' ')}`);
    const [, subscribers] = (await client.pubsub('NUMSUB', channels[0]!)) as [string, number];
    assert.is(subscribers, urls.length, `${channels[0]} has ${subscribers} subscriber(s) for ${urls.length} instances`);
  } finally {
    client.disconnect();
  }
});

test('a stream through the shipped nginx gets, within a second of its 2xx, the change of a write made on each instance', async () => {
  const before = await settledVersion();
  const stream = await openStream(`${through}/api/v1/changes?since=now`);
  try {
    assert.is(stream.status, 200, stream.text());
    assert.match(String(stream.headers['content-type']), /^text\/event-stream/);
    assert.ok(stream.headers['catalog-version'], 'the stream answer carries a Catalog-Version');
    // The first bytes (the retry line) pass nginx at once, before any change.
    assert.ok(
      await stream.until(() => stream.text().includes('retry:')),
      `the retry line passes nginx: '${stream.text()}'`,
    );
    const written: Written[] = [];
    const timings: string[] = [];
    // Each instance in turn, twice, each write once the previous one's event came.
    for (const [n, url] of [...urls, ...urls].entries()) {
      const family = FAMILIES[n % FAMILIES.length]!;
      const done = await write(url, family, n < 3 ? 0 : 1);
      written.push(done);
      const arrived = await stream.until(() => stream.changes().length >= written.length);
      const change = stream.changes()[written.length - 1];
      assert.ok(
        arrived && change,
        `the change of ${family}/${done.uuid} written on ${url} reaches the stream through nginx (came: ${stream.text()})`,
      );
      const ms = Math.round(change!.readAt - done.answeredAt);
      timings.push(`${family} on ${url}: ${ms} ms`);
      assert.equal(
        [change!.family, change!.uuid, change!.action],
        [family, done.uuid, 'changed'],
        `the event names the write: ${JSON.stringify(change)}`,
      );
      assert.ok(
        ms <= EVENT_BOUND_MS,
        `the change reached the stream ${ms} ms after the write's 2xx; the bound is ${EVENT_BOUND_MS} ms (${timings.join('; ')})`,
      );
      assert.is(change!.id, change!.cursor, 'the event id is the change cursor');
      assert.is(change!.id, done.version, "the event id is the cursor the write's answer named (Catalog-Version)");
    }
    const ids = stream.changes().map((change) => change.id);
    assert.is(new Set(ids).size, ids.length, `strictly distinct ids: ${ids.join(' ')}`);
    assert.equal(
      stream.changes().map(describe),
      written.map((w) => describe({ action: 'changed', ...w })),
    );
    // The order of the events is the feed's, on every instance.
    await settledVersion();
    for (const url of urls)
      assert.equal(
        (await feedOf(url, before)).map((change) => change.cursor),
        ids,
        `the JSON feed of ${url} lists the streamed changes, in their order`,
      );
  } finally {
    stream.close();
  }
});

test('a burst of concurrent writes on all three instances: the stream through nginx gets each once, in the feed order', async () => {
  const before = await settledVersion();
  const stream = await openStream(`${through}/api/v1/changes?since=${encodeURIComponent(before)}`);
  try {
    assert.is(stream.status, 200, stream.text());
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, n) => write(urls[n % 3]!, FAMILIES[n % 3]!, 2 + (n % 2))),
    );
    const arrived = await stream.until(() => stream.changes().length >= burst.length);
    assert.ok(arrived, `all ${burst.length} changes come (came ${stream.changes().length}: ${stream.text()})`);
    // Every instance has every write: the feeds are the reference, and a change sent twice has had time to come.
    await settledVersion();
    const feeds = await Promise.all(urls.map((url) => feedOf(url, before)));
    for (const [n, feed] of feeds.entries())
      assert.equal(
        feed.map((change) => change.cursor),
        feeds[0]!.map((change) => change.cursor),
        `${urls[n]} lists the same cursors as ${urls[0]}`,
      );
    const streamed = stream.changes();
    assert.is(streamed.length, burst.length, `each change once: ${streamed.map((c) => c.id).join(' ')}`);
    assert.equal(
      streamed.map((change) => change.id),
      feeds[0]!.map((change) => change.cursor),
      'in the order of the feed',
    );
    assert.equal(
      streamed.map(describe).sort(),
      burst.map((w) => describe({ action: 'changed', ...w })).sort(),
      'one change for each write',
    );
    assert.equal(
      streamed.map((change) => change.id).sort(),
      burst.map((w) => w.version).sort(),
      "each write's Catalog-Version is its change's id",
    );
  } finally {
    stream.close();
  }
});

test('Last-Event-ID resumes on a third instance: exactly the changes missed, in order; the JSON feed of every instance agrees', async () => {
  const [one, two, three] = urls as [string, string, string];
  const start = await settledVersion();
  const first = await openStream(`${one}/api/v1/changes?since=${encodeURIComponent(start)}`);
  const seen: string[] = [];
  try {
    assert.is(first.status, 200, first.text());
    await write(two, 'actors', 2);
    await write(one, 'soundtracks', 2);
    assert.ok(await first.until(() => first.changes().length >= 2), `two changes come: ${first.text()}`);
    seen.push(...first.changes().map((change) => change.id));
  } finally {
    first.close();
  }
  const lastSeen = seen.at(-1)!;
  const missed = [await write(two, 'characters', 2), await write(two, 'actors', 3), await write(two, 'soundtracks', 3)];
  // At once, as a client reconnects: the third instance sends the missed changes once it has them.
  const resumed = await openStream(`${three}/api/v1/changes?since=now`, { 'Last-Event-ID': lastSeen });
  try {
    assert.is(resumed.status, 200, `resuming after ${lastSeen}: ${resumed.status} ${resumed.text()}`);
    assert.ok(
      await resumed.until(() => resumed.changes().length >= missed.length),
      `the ${missed.length} missed changes come (came: ${resumed.text()})`,
    );
    // A change after them, made elsewhere: once it came, whatever came before it is all that will.
    const marker = await write(one, 'characters', 3);
    assert.ok(
      await resumed.until(() => resumed.changes().some((change) => change.id === marker.version)),
      `the next change comes too (came: ${resumed.text()})`,
    );
    const got = resumed.changes();
    assert.equal(
      got.map(describe),
      [...missed, marker].map((w) => describe({ action: 'changed', ...w })),
      'exactly the missed changes, in order, then the next',
    );
    const ids = got.map((change) => change.id);
    assert.equal(
      ids,
      [...missed, marker].map((w) => w.version),
      "each id is the cursor its write's answer named",
    );
    assert.is(new Set([...seen, ...ids]).size, seen.length + ids.length, 'no change seen before is sent again');
    await settledVersion();
    for (const url of urls)
      assert.equal(
        (await feedOf(url, lastSeen)).map((change) => change.cursor),
        ids,
        `GET /api/v1/changes?since=<last id seen> on ${url} lists the same changes`,
      );
  } finally {
    resumed.close();
  }
});

test('a cursor one instance just gave is taken at once by the others (since= and Last-Event-ID): never a 410', async () => {
  // A client balanced across the instances reads a write's Catalog-Version (or an event's id)
  // from one and its next page (or its reconnection) from another, before that one may have
  // applied the write: a cursor of this catalog, which must not be called "of another catalog".
  const refused: string[] = [];
  for (let round = 0; round < 6; round++) {
    const done = await write(urls[round % 3]!, FAMILIES[round % 3]!, 4);
    const others = urls.filter((url) => url !== done.on);
    const answers = await Promise.all([
      ...others.map(async (url) => {
        const answer = await get(url, `/api/v1/changes?since=${encodeURIComponent(done.version)}`, maintainer);
        return { url, how: 'since=', status: answer.status, body: JSON.stringify(answer.body) };
      }),
      ...others.map(async (url) => {
        const stream = await openStream(`${url}/api/v1/changes`, { 'Last-Event-ID': done.version });
        stream.close();
        return { url, how: 'Last-Event-ID', status: stream.status, body: stream.text() };
      }),
    ]);
    for (const answer of answers)
      if (answer.status !== 200)
        refused.push(`round ${round}, ${answer.how} on ${answer.url}: ${answer.status} ${answer.body.slice(0, 160)}`);
  }
  assert.ok(refused.length === 0, `${refused.length} of 24 refused:\n${refused.join('\n')}`);
  // And with every instance settled, no change follows the last one anywhere.
  const now = await settledVersion();
  for (const url of urls) assert.equal(await feedOf(url, now), [], `${url} lists nothing after ${now}`);
});

const cursor = (text: string) => Buffer.from(text).toString('base64url');

test('a malformed Last-Event-ID through nginx is a 400 in the error shape, naming Last-Event-ID, never a 500', async () => {
  const now = await settledVersion();
  const malformed: [string, string][] = [
    ['abc%', 'not base64url'],
    ['A', 'base64url that decodes to nothing'],
    ['A'.repeat(7000), '7,000 characters'],
    [cursor('c1.-1.0.0.abc'), 'a negative number'],
    [cursor('c1.99999999999999999.0.0.abc'), 'a number past 15 digits'],
    [cursor('c2.1.0.0.abc'), 'another prefix'],
    [cursor(`c1.1.0.0.${'z'.repeat(9)}`), 'a tag too long'],
    [`${now}.`, 'a real cursor with a dot after it'],
    ['caf\u00e9', 'a Latin-1 byte'],
    [' \tabc', 'leading blanks'],
  ];
  // Each at a URL of its own (`limit`), so that each is judged, none answered as another was.
  for (const [n, [value, what]] of malformed.entries()) {
    const answer = await rawGet(`${through}/api/v1/changes?since=now&limit=${n + 1}`, {
      Accept: 'text/event-stream',
      'Last-Event-ID': value,
    });
    const where = `Last-Event-ID ${what} (${JSON.stringify(value.slice(0, 40))}): ${answer.status} ${answer.body.slice(0, 300)}`;
    assert.is(answer.status, 400, where);
    assert.match(String(answer.headers['content-type']), /^application\/json/, where);
    const body = JSON.parse(answer.body) as Record<string, unknown>;
    assert.is(body.code, 400, where);
    assert.is(body.status, 'Bad Request', where);
    assert.match(String(body.message), /^Last-Event-ID /, where);
  }
  // Well formed, but no place of this catalog: a 410 naming it, in the error shape, not a 500.
  const ahead = await rawGet(`${through}/api/v1/changes`, {
    Accept: 'text/event-stream',
    'Last-Event-ID': cursor('c1.999999999999999.0.0.abc'),
  });
  assert.is(ahead.status, 410, ahead.body);
  assert.match(String((JSON.parse(ahead.body) as Record<string, unknown>).message), /^Last-Event-ID names a cursor/);
  // 10 KB is more than nginx takes in one header line (large_client_header_buffers, 8 KB by
  // default): nginx refuses it itself with a 400 of its own, before any instance sees it.
  // Reached directly, each instance refuses it in the error shape.
  const huge = 'A'.repeat(10 * 1024);
  const viaNginx = await rawGet(`${through}/api/v1/changes`, { Accept: 'text/event-stream', 'Last-Event-ID': huge });
  assert.is(viaNginx.status, 400, `10 KB through nginx: ${viaNginx.status} ${viaNginx.body.slice(0, 200)}`);
  for (const url of urls) {
    const answer = await rawGet(`${url}/api/v1/changes`, { Accept: 'text/event-stream', 'Last-Event-ID': huge });
    assert.is(answer.status, 400, `10 KB on ${url}: ${answer.body.slice(0, 300)}`);
    const body = JSON.parse(answer.body) as Record<string, unknown>;
    assert.is(body.code, 400);
    assert.match(String(body.message), /^Last-Event-ID is 10240 characters long/);
  }
});

test('malformed Last-Event-IDs change nothing for the other clients of the same URL: their streams still start', async () => {
  const url = '/api/v1/changes?since=now';
  // Each instance is sent the same malformed Last-Event-ID twice, directly and through nginx.
  for (const base of [...urls, ...urls, through, through, through]) {
    const answer = await rawGet(base + url, { Accept: 'text/event-stream', 'Last-Event-ID': 'not-a-cursor' });
    assert.is(answer.status, 400, answer.body);
  }
  const now = await settledVersion();
  const refused: string[] = [];
  for (const base of [...urls, through, through, through])
    for (const headers of [{}, { 'Last-Event-ID': now }] as Record<string, string>[]) {
      const stream = await openStream(base + url, headers);
      stream.close();
      if (stream.status !== 200)
        refused.push(`${base} ${JSON.stringify(headers)}: ${stream.status} ${stream.text().slice(0, 200)}`);
    }
  assert.ok(
    refused.length === 0,
    `streams refused after others sent a malformed Last-Event-ID:\n${refused.join('\n')}`,
  );
});

test.after(stopAll);
test.run();
