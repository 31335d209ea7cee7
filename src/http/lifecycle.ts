import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';

/**
 * The addresses to type to reach the server: `localhost`, or the bound address, and when
 * bound to every interface, the machine's own addresses on its networks (what a classroom
 * needs to hand out).
 *
 * @example
 * serverUrls(server, '0.0.0.0'); // { local: 'http://localhost:3000', network: ['http://192.168.1.20:3000'] }
 */
export function serverUrls(server: Server, host: string): { local: string; network: string[] } {
  const { port } = server.address() as AddressInfo;
  const everywhere = host === '0.0.0.0' || host === '::';
  const local = `http://${everywhere ? 'localhost' : host.includes(':') ? `[${host}]` : host}:${port}`;
  if (!everywhere) return { local, network: [] };
  const network: string[] = [];
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) {
      if (address.internal) continue;
      if (address.family === 'IPv4') network.push(`http://${address.address}:${port}`);
      // Link-local IPv6 addresses need a zone to be typed; only routable ones are worth showing.
      else if (host === '::' && !address.address.toLowerCase().startsWith('fe80'))
        network.push(`http://[${address.address}]:${port}`);
    }
  }
  return { local, network };
}

/** What a graceful stop does: how long in-flight requests may take, and what to close after. */
export interface StopOptions {
  graceMs: number;
  log: (line: string) => void;
  /** Closes what the server used (Redis, file watchers), flushes the log; then the process exits 0. */
  cleanup: () => Promise<void> | void;
}

/**
 * On SIGTERM or SIGINT: stops accepting connections, lets in-flight requests finish (for at
 * most `graceMs`, then closes what is left), cleans up and exits 0.
 *
 * @example
 * stopOnSignals(server, { graceMs: 10_000, log: log.info, cleanup: () => limits?.close() });
 */
export function stopOnSignals(server: Server, { graceMs, log, cleanup }: StopOptions): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: finishing in-flight requests (at most ${Math.round(graceMs / 1000)} s)`);
    // Keep-alive connections that finish their request become idle: close them as they do.
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    server.close(async () => {
      clearInterval(idle);
      await cleanup();
      process.exit(0);
    });
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), graceMs).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
