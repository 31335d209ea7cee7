import {
  createServer as createNodeServer,
  maxHeaderSize,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { errorJson } from '../lib/error-json.ts';
import { rawErrorAnswer } from './errors.ts';
import { SECURITY_HEADERS } from './headers.ts';
import { lingerOnUnreadBodies, type LingerOptions } from './linger.ts';

/** How the HTTP server protects itself from slow or many connections. */
export interface ServerOptions {
  /** Longest time to receive a whole request, headers and body. */
  requestTimeoutMs: number;
  /** Longest time to receive the headers (at most `requestTimeoutMs`). */
  headersTimeoutMs: number;
  /** Open connections in total. */
  maxConnections: number;
  /** Open connections per peer address; undefined when all peers are one proxy. */
  maxConnectionsPerAddress?: number;
  /** How much of a body refused unread is still read and dropped, so the client can read the answer. */
  linger: LingerOptions;
}

/** The request line's method and path as far as Node read it, for the error body. */
function requestLine(packet: Buffer | undefined): { method: string; url: string } {
  const [, method = 'GET', target = ''] = /^([A-Z]{1,20}) (\S{1,200})/.exec(packet?.toString('latin1') ?? '') ?? [];
  return { method, url: target.split('?')[0]! };
}

/**
 * Answers a request that Node refused before any handler saw it, in the one error shape,
 * then closes: request line and headers over the size limit (431), a request not received
 * in time (408), bytes that are not HTTP (400).
 */
function answerClientError(error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const { method, url } = requestLine(error.rawPacket);
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    socket.end(
      rawErrorAnswer({
        status: 431,
        method,
        url,
        message: `Request line and headers exceed ${maxHeaderSize / 1024} KB`,
      }),
    );
  } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    socket.end(
      rawErrorAnswer({
        status: 408,
        method,
        url,
        message: 'The request was not received in time; send it whole without pauses',
      }),
    );
  } else {
    socket.end(
      rawErrorAnswer({ status: 400, method, url, message: `Malformed HTTP request (${error.code ?? 'parse error'})` }),
    );
  }
}

/** `Expect:` other than `100-continue`: a 417 naming it. */
function answerExpectation(req: IncomingMessage, res: ServerResponse): void {
  const body = errorJson({
    status: 417,
    method: req.method ?? 'GET',
    url: (req.url ?? '').split('?')[0]!,
    message: `Expect '${req.headers.expect}' is not supported; only 100-continue is`,
  });
  res
    .writeHead(417, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-store',
      ...SECURITY_HEADERS,
    })
    .end(body);
}

/** CONNECT asks for a tunnel, which an API does not offer: a 405, then the connection closes. */
function answerConnect(req: IncomingMessage, socket: Duplex): void {
  socket.end(
    rawErrorAnswer(
      {
        status: 405,
        method: 'CONNECT',
        url: req.url ?? '',
        message: 'Method CONNECT is not allowed: this server is not a proxy',
      },
      { Allow: 'GET, HEAD, POST, OPTIONS' },
    ),
  );
}

/** Turns away connections beyond `max` per peer address as they arrive, with a 503 in the error shape. */
function capPerAddress(server: Server, max: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      const message =
        `Too many open connections from ${address} (at most ${max}, MAX_CONNECTIONS_PER_ADDRESS); close some and ` +
        `retry`;
      socket.end(rawErrorAnswer({ status: 503, method: 'GET', url: '', message }, { 'Retry-After': '1' }));
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

/**
 * The HTTP server for `listener`, with the timeouts and connection caps of `options`, and
 * every request Node itself would turn away (unparsable, timed out, unmet `Expect`, CONNECT)
 * answered in the one error shape, and answers that refuse a body still being sent delivered
 * before the connection closes (see `lingerOnUnreadBodies`). A missing `Host` is left to the
 * app, which answers it in the same shape.
 *
 * @example
 * const server = createHttpServer(app.callback(), {
 *   requestTimeoutMs: 10_000,
 *   headersTimeoutMs: 5_000,
 *   maxConnections: 1024,
 *   linger: { maxBytes: 2 ** 26, maxMs: 5_000 },
 * });
 */
export function createHttpServer(listener: RequestListener, options: ServerOptions): Server {
  const headersTimeout = Math.min(options.headersTimeoutMs, options.requestTimeoutMs);
  const server = createNodeServer(
    {
      requireHostHeader: false,
      requestTimeout: options.requestTimeoutMs,
      headersTimeout,
      // Node checks the two timeouts every 30 s by default, which would let a slow client hold on that long.
      connectionsCheckingInterval: Math.min(1000, headersTimeout),
    },
    lingerOnUnreadBodies(listener, options.linger),
  );
  server.maxConnections = options.maxConnections;
  if (options.maxConnectionsPerAddress !== undefined) capPerAddress(server, options.maxConnectionsPerAddress);
  server.on('clientError', answerClientError);
  server.on('checkExpectation', answerExpectation);
  server.on('connect', answerConnect);
  return server;
}

/**
 * Listens on `port`/`host` and resolves with the server once bound.
 *
 * @example
 * const server = await serve(createHttpServer(listener, options), 0, '127.0.0.1'); // port 0: any free port
 */
export function serve(server: Server, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.once('listening', () => resolve(server));
    server.listen(port, host);
  });
}
