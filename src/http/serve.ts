import { maxHeaderSize, STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorJson } from './errors.ts';

/**
 * Answers a request that Node's HTTP parser refused before Koa saw it (request line and
 * headers over the size limit, bytes that are not HTTP) in the one error shape, then closes.
 */
function answerUnparsable(error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const [, method = 'GET', target = ''] = /^([A-Z]{1,10}) (\S{1,200})/.exec(error.rawPacket?.toString('latin1') ?? '') ?? [];
  const message =
    status === 431 ? `Request line and headers exceed ${maxHeaderSize / 1024} KB` : `Malformed HTTP request (${error.code ?? 'parse error'})`;
  const body = errorJson({ status, method, message, url: target.split('?')[0]! });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Listens on `port`/`host` and resolves with the server once bound. Requests that Node cannot
 * parse are answered in the error shape too.
 *
 * @example
 * const server = await serve(createServer(options), 0, '127.0.0.1'); // port 0: any free port
 */
export function serve(server: Server, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.on('clientError', answerUnparsable);
    server.once('error', reject);
    server.once('listening', () => resolve(server));
    server.listen(port, host);
  });
}

/** Closes `server` gracefully on SIGINT/SIGTERM, then exits 0. */
export function stopOnSignals(server: Server, log: (line: string) => void): void {
  const stop = (signal: string) => {
    log(`${signal}: finishing in-flight requests`);
    server.close(() => process.exit(0));
    server.closeIdleConnections();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
