import { connect } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp } from './helpers/http.ts';
import { parseAnswer, type WireAnswer } from './helpers/wire.ts';

interface Sent {
  answer: WireAnswer;
  /** The error a write met (EPIPE, ECONNRESET), if any. */
  writeError?: string;
  /** Body bytes the connection took before it closed. */
  sent: number;
}

interface Body {
  path?: string;
  /** Bytes of body to send; Infinity: until the server closes. */
  size: number;
  chunked: boolean;
  close: boolean;
  /** The first bytes of the body (the rest is filler). */
  start?: string;
  headers?: string;
}

const PIECE = Buffer.alloc(64 * 1024, 'a');

/**
 * Sends a request whose body is written as fast as the connection takes it, the way a client
 * that writes everything before it reads does: every write must succeed, and the answer is
 * whatever arrived once the body is out (or the server closed).
 */
function sendBody(
  port: number,
  { path = '/api/v1/auth/register', size, chunked, close, start = '', headers = '' }: Body,
): Promise<Sent> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let sent = 0;
    let writeError: string | undefined;
    const timer = setTimeout(() => socket.destroy(), 20_000);
    const closed = new Promise((r) => socket.once('close', r));
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('error', (error: NodeJS.ErrnoException) => (writeError ??= error.code ?? error.message));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ answer: parseAnswer(text), sent, ...(writeError ? { writeError } : {}) });
    });
    socket.on('connect', async () => {
      const framing = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${size}`;
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${close ? 'Connection: close\r\n' : ''}${headers}${framing}\r\n\r\n`,
      );
      const first = Buffer.from(start);
      let piece: Buffer = first.length ? first : PIECE;
      while (sent < size && !socket.destroyed) {
        if (sent + piece.length > size) piece = piece.subarray(0, size - sent);
        const ok = socket.write(
          chunked
            ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
            : piece,
        );
        sent += piece.length;
        piece = PIECE;
        if (!ok) await Promise.race([new Promise((r) => socket.once('drain', r)), closed]);
      }
      if (!socket.destroyed && chunked) socket.write('0\r\n\r\n');
      // Keep-alive connections stay open: the test closes them once the answer is in.
      if (!close) setTimeout(() => socket.end(), 200);
    });
  });
}

function assert413(result: Sent, what: string, size: number): void {
  assert.is(result.sent, size, `${what}: only ${result.sent} bytes of the body went out`);
  assert.is(
    result.writeError,
    undefined,
    `${what}: a write failed (${result.writeError}) after ${result.sent} bytes; got ${result.answer.text.slice(0, 80)}`,
  );
  assert.is(result.answer.status, 413, `${what}: ${result.answer.text.slice(0, 200)}`);
  const body = JSON.parse(result.answer.body) as Record<string, unknown>;
  assert.is(body.code, 413, what);
  assert.match(String(body.message), /larger than 16 KB/, what);
  assert.is(result.answer.headers.connection, 'close', what);
}

test('bodies far past the limit, sent fast, 16 at a time: every client reads its 413, no write fails', async () => {
  const server = await startApp();
  try {
    for (let round = 0; round < 3; round++) {
      const kinds = Array.from({ length: 16 }, (_, i) => ({ chunked: i % 2 === 0, close: i % 4 < 2 }));
      const results = await Promise.all(kinds.map((kind) => sendBody(server.port, { ...kind, size: 10 * 2 ** 20 })));
      results.forEach((result, i) =>
        assert413(
          result,
          `round ${round}, ${kinds[i]!.chunked ? 'chunked' : 'with a length'}, ${kinds[i]!.close ? 'Connection: close' : 'keep-alive'}`,
          10 * 2 ** 20,
        ),
      );
    }
  } finally {
    await server.close();
  }
});

test('a register body with a 1 MB password gets its 413, whatever the framing', async () => {
  const server = await startApp();
  try {
    for (const chunked of [false, true]) {
      for (const close of [false, true]) {
        const password = 'p'.repeat(2 ** 20);
        const body = JSON.stringify({ username: 'big_password', email: 'big@example.org', password });
        const result = await sendBody(server.port, {
          size: Buffer.byteLength(body),
          chunked,
          close,
          start: body.slice(0, 70),
        });
        assert413(result, `chunked ${chunked}, close ${close}`, Buffer.byteLength(body));
      }
    }
  } finally {
    await server.close();
  }
});

test('a body refused unread for another reason (415, 404, 405) reaches the client the same way', async () => {
  const server = await startApp();
  try {
    const cases = [
      { path: '/api/v1/auth/register', headers: 'Content-Encoding: zstd\r\n', status: 415 },
      { path: '/api/v1/nowhere', headers: '', status: 404 },
      { path: '/api/v1/actors/random', headers: '', status: 405 },
    ];
    for (const { path, headers, status } of cases) {
      const result = await sendBody(server.port, { path, headers, size: 8 * 2 ** 20, chunked: false, close: true });
      assert.is(result.writeError, undefined, `${path}: ${result.writeError}`);
      assert.is(result.answer.status, status, `${path}: ${result.answer.text.slice(0, 200)}`);
      assert.is((JSON.parse(result.answer.body) as { code: number }).code, status);
    }
  } finally {
    await server.close();
  }
});

test('a body that never ends is read for a bounded size, then the connection is cut; the 413 came first', async () => {
  const server = await startApp();
  try {
    const result = await sendBody(server.port, { size: Infinity, chunked: true, close: false });
    assert.is(result.answer.status, 413, result.answer.text.slice(0, 200));
    assert.ok(result.sent >= 64 * 2 ** 20, `cut after ${result.sent} bytes, before the 64 MB bound`);
    assert.ok(result.sent < 96 * 2 ** 20, `still reading after ${result.sent} bytes`);
    // The server goes on serving.
    assert.is((await server.get('/api/ping')).status, 200);
  } finally {
    await server.close();
  }
});

test.run();
