import { connect } from 'node:net';

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
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0), headers, body: end < 0 ? '' : text.slice(end + 4), text };
}

/**
 * Writes `chunks` to a fresh connection (waiting `gapMs` between them) and reads until the
 * server closes or `waitMs` passes: for requests no HTTP client would send.
 */
export function exchange(port: number, chunks: string | string[], { waitMs = 2000, gapMs = 0 } = {}): Promise<WireAnswer> {
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
