import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { networkInterfaces } from 'node:os';
import { setFlagsFromString } from 'node:v8';

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
  /** Ends what would never finish by itself (the change streams) as the stop begins. */
  stopping?: () => void;
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
export function stopOnSignals(server: Server, { graceMs, log, stopping: ending, cleanup }: StopOptions): void {
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
    ending?.();
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), graceMs).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** V8's collector, as `--expose-gc` names it `gc`, with the options this file passes. */
type Collector = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * Whether V8's `gc()` can be asked to shrink the heap (its `flavor` option, in newer V8 than
 * Node 20's 11.3, which ignores it and gives nothing back: there the collection would cost a
 * pause and free nothing). Measured on Node 20 and Node 26 (V8 14); V8 12 is where we expect
 * the option first.
 */
const SHRINKS_ON_REQUEST = Number(process.versions.v8.split('.')[0]) >= 12;

/**
 * Collects the boot's garbage once, `delayMs` after the server listens (the first requests of
 * a starting client are answered first): the collection that shrinks the heap, as V8's memory
 * reducer does when a process goes idle. The server runs without the reducer
 * (`--no-memory-reducer`, docs/performance.md), and without this the young generation stays as
 * large as loading the code and the catalog made it (4 MB on Node 26, 0.3 MB after), with
 * what only the boot used. Once, early: later collections are the ordinary ones, which leave what
 * requests optimized as it is (the reducer's idle ones slowed requests down).
 *
 * @example
 * releaseBootMemory(); // 71 → 67 MB resident on Node 26
 */
export function releaseBootMemory(delayMs = 200): void {
  if (!SHRINKS_ON_REQUEST) return;
  setTimeout(() => {
    // The collector is a function of new contexts made while --expose-gc is on: one, for this call.
    setFlagsFromString('--expose-gc');
    try {
      const { runInNewContext } = createRequire(import.meta.url)('node:vm') as typeof import('node:vm');
      (runInNewContext('gc') as Collector)({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }, delayMs).unref();
}
