import { once } from 'node:events';
import { createServer } from 'node:net';

/**
 * A TCP port that was free on 127.0.0.1 a moment ago, for servers that must be told theirs.
 *
 * @example
 * const port = await freePort(); // e.g. 41873
 */
export async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  probe.close();
  await once(probe, 'close');
  return port;
}
