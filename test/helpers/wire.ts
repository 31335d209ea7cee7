import { connect } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** An answer read off the wire: status line, headers by lower-case name, body text. */
export interface WireAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Everything received, for messages. */
  text: string;
}

/** Parses the first HTTP/1.1 answer in `text`; status 0 when nothing came. */
export function parseAnswer(text: string): WireAnswer {
  const end = text.indexOf('\r\n\r\n');
  const head = end < 0 ? text : text.slice(0, end);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return {
    status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0),
    headers,
    body: end < 0 ? '' : text.slice(end + 4),
    text,
  };
}

/**
 * Writes `chunks` to a fresh connection (waiting `gapMs` between them) and reads until the
 * server closes or `waitMs` passes: for requests no HTTP client would send.
 */
export function exchange(
  port: number,
  chunks: string | string[],
  { waitMs = 2000, gapMs = 0 } = {},
): Promise<WireAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(parseAnswer(text));
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('close', done);
    socket.on('error', done);
    socket.on('connect', async () => {
      for (const chunk of Array.isArray(chunks) ? chunks : [chunks]) {
        if (socket.destroyed) return;
        socket.write(chunk);
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      }
    });
  });
}

/** Whether `bytes` hold one whole HTTP/1.1 answer (by Content-Length, chunked end, or no body). */
function complete(bytes: Buffer): boolean {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const { status, headers } = parseAnswer(bytes.subarray(0, end + 4).toString('latin1'));
  const body = bytes.length - end - 4;
  if (status === 204 || status === 304) return true;
  if (headers['content-length'] !== undefined) return body >= Number(headers['content-length']);
  return headers['transfer-encoding'] === 'chunked' && bytes.subarray(-5).toString('latin1') === '0\r\n\r\n';
}

/**
 * Sends `request` (exact bytes, as a recorded client sent them) on a fresh keep-alive
 * connection and resolves with the answer once it is whole, its body decoded from chunks and
 * gzip as a client would.
 */
export function replay(
  port: number,
  request: string,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('error', reject);
    socket.on('connect', () => socket.write(request));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const bytes = Buffer.concat(chunks);
      if (!complete(bytes)) return;
      socket.destroy();
      const end = bytes.indexOf('\r\n\r\n');
      const { status, headers } = parseAnswer(bytes.subarray(0, end + 4).toString('latin1'));
      let body = bytes.subarray(end + 4);
      if (headers['transfer-encoding'] === 'chunked') {
        const parts: Buffer[] = [];
        for (let at = 0; ;) {
          const line = body.indexOf('\r\n', at);
          const size = parseInt(body.subarray(at, line).toString('latin1'), 16);
          if (!size) break;
          parts.push(body.subarray(line + 2, line + 2 + size));
          at = line + 2 + size + 2;
        }
        body = Buffer.concat(parts);
      }
      if (headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      resolve({ status, headers, body: body.toString('utf8') });
    });
  });
}

/**
 * Headers of an answer by lowercase name (`raw`: as the wire carried them), without the ones
 * that differ per moment or connection: what Koa's answer and the fast path's must share.
 */
export function headersOf(answer: { raw: [string, string][] }): Record<string, string> {
  const skip = ['date', 'connection', 'keep-alive'];
  return Object.fromEntries(
    answer.raw
      .filter(([name]) => !skip.includes(name.toLowerCase()))
      .map(([name, value]) => [name.toLowerCase(), value]),
  );
}
