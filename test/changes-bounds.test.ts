import { connect } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { tokenWithRole } from './helpers/admin.ts';
import { caller, type Json } from './helpers/curator-calls.ts';
import { openStream } from './helpers/event-stream.ts';
import { startApp, type TestServer } from './helpers/http.ts';

// The change streams' bounds on the compiled server: the server's total, each account's, and a
// reader that never reads, which is cut off rather than buffered for.

const app: TestServer = await startApp({
  CHANGE_HEARTBEAT_SECONDS: '1',
  CHANGE_STREAMS: '6',
  CHANGE_STREAMS_PER_ADDRESS: '5',
  CHANGE_STREAMS_PER_ACCOUNT: '2',
});
const token = await tokenWithRole(app, 'MAINTAINER', 'bounds');
const call = caller(app, token);
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('each account holds 2 streams, from any address; the server holds 6 in all, then answers 503 naming CHANGE_STREAMS', async () => {
  const mine = await Promise.all(
    [1, 2, 3].map(() => openStream(`${app.url}/api/v1/changes?since=now`, { Authorization: `Bearer ${token}` })),
  );
  assert.equal(mine.map((stream) => stream.status).sort(), [200, 200, 429]);
  const refused = JSON.parse(await mine.find((stream) => stream.status === 429)!.body()) as Json;
  assert.match(String(refused.message), 'CHANGE_STREAMS_PER_ACCOUNT');
  // Three anonymous ones fill the address's 5; the server's 6th comes from an address of its own (IPv6 loopback).
  const anonymous = await Promise.all([1, 2, 3].map(() => openStream(`${app.url}/api/v1/changes?since=now`)));
  assert.equal(
    anonymous.map((stream) => stream.status),
    [200, 200, 200],
  );
  const fifth = await openStream(`${app.url}/api/v1/changes?since=now`);
  assert.is(fifth.status, 429);
  assert.match(await fifth.body(), 'CHANGE_STREAMS_PER_ADDRESS');
  for (const stream of [...mine, ...anonymous]) stream.close();
  await wait(300);
  const all = await Promise.all([1, 2, 3, 4, 5].map(() => openStream(`${app.url}/api/v1/changes?since=now`)));
  assert.ok(all.every((stream) => stream.status === 200));
  const other = await openStream(`${app.url.replace('127.0.0.1', 'localhost')}/api/v1/changes?since=now`).catch(
    () => undefined,
  );
  if (other) {
    // Only where localhost reaches the server from another address than 127.0.0.1.
    assert.ok([200, 429].includes(other.status));
    other.close();
  }
  for (const stream of all) stream.close();
});

test('a reader that never reads is cut off once it leaves changes unread for 4 comment periods; the server goes on', async () => {
  await wait(300);
  const actors = (await (await app.get('/api/v1/actors?size=1')).json()) as Json[];
  const start = (await app.get('/api/v1/changes?since=now')).headers.get('catalog-version')!;
  // A reader that asks for every change with its record, and never reads a byte.
  const socket = connect(Number(new URL(app.url).port), '127.0.0.1');
  socket.write(
    `GET /api/v1/changes?since=${start}&include=records HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`,
  );
  socket.pause();
  socket.on('error', () => {});
  // 500 writes of a 12 KB record: megabytes of events for it, more than the socket's buffers hold.
  const award = 'A'.repeat(12_000);
  for (let n = 0; n < 500; n++) {
    const answer = await call(
      'PATCH',
      `/api/v1/actors/${actors[0]!.uuid}`,
      { awards: [`${award} ${n}`] },
      {
        'Content-Type': 'application/merge-patch+json',
      },
    );
    assert.is(answer.status, 200, JSON.stringify(answer.body).slice(0, 300));
  }
  const reading = await openStream(`${app.url}/api/v1/changes?since=${start}`);
  assert.is(reading.status, 200);
  const events = await reading.next(500, 20_000);
  assert.is(events.length, 500, 'a reader that reads is served meanwhile');
  // With the stalled one, this address holds its 5: a sixth is refused until the stalled one is cut off (4 s unread).
  const others = await Promise.all([1, 2, 3].map(() => openStream(`${app.url}/api/v1/changes?since=now`)));
  assert.ok(others.every((stream) => stream.status === 200));
  const refused = await openStream(`${app.url}/api/v1/changes?since=now`);
  assert.is(refused.status, 429, 'the stalled stream still holds its place');
  let admitted: Awaited<ReturnType<typeof openStream>> | undefined;
  for (const deadline = Date.now() + 20_000; !admitted && Date.now() < deadline;) {
    await wait(500);
    const next = await openStream(`${app.url}/api/v1/changes?since=now`);
    if (next.status === 200) admitted = next;
  }
  assert.ok(admitted, 'the stalled stream was cut off, its place freed');
  for (const stream of [reading, ...others, admitted!]) stream.close();
  socket.destroy();
});

test.after(() => app.close());
test.run();
