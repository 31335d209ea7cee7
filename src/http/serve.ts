import type { Server } from 'node:http';
import type Koa from 'koa';

/**
 * Listens on `port`/`host` and resolves with the server once bound. SIGINT and SIGTERM stop
 * accepting connections, let in-flight requests finish, then exit 0.
 *
 * @example
 * const server = await serve(app, 0, '127.0.0.1'); // port 0: any free port
 */
export function serve(app: Koa, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.once('error', reject);
    server.once('listening', () => resolve(server));
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
