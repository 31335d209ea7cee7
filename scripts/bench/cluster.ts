import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Nginx } from '../lib/nginx.ts';
import { RedisServer } from '../lib/redis-server.ts';
import { compiledServer, startChild, type Child } from './child.ts';
import { drive } from './load.ts';
import { freePort } from './ports.ts';

export interface ClusterOptions {
  seconds: number;
  connections: number;
  progress: (line: string) => void;
}

/** Requests per second through nginx, with one instance behind it and with three. */
export interface ClusterRow {
  instances: number;
  reads: number;
  authentications: number;
}

const SECRET = 'the key every instance of the benchmark shares';

/** Sign-ins per second through `url` for one account, at the default scrypt cost. */
async function signIns(url: string, seconds: number, connections: number): Promise<number> {
  const body = JSON.stringify({ username: 'bench_user', password: 'a benchmark passphrase' });
  const result = await autocannon({
    url: `${url}/api/v1/auth/authenticate`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    duration: seconds,
    connections,
  });
  return result['2xx'] / seconds;
}

/**
 * Starts a redis-server and nginx, then measures reads (one record by uuid) and sign-ins
 * through nginx with one instance of our server behind it, then three, all sharing accounts
 * and limits through Redis, as docs/scaling.md deploys them.
 *
 * @example
 * const rows = await measureCluster({ seconds: 5, connections: 50, progress: console.log });
 */
export async function measureCluster(options: ClusterOptions): Promise<ClusterRow[]> {
  const work = await mkdtemp(join(tmpdir(), 'bench-cluster-'));
  const redis = new RedisServer(await freePort(), work);
  await redis.start();
  const rows: ClusterRow[] = [];
  try {
    for (const count of [1, 3]) {
      const children: Child[] = [];
      const nginxPort = await freePort();
      let nginx: Nginx | undefined;
      try {
        options.progress(`${count} instance(s) behind nginx`);
        for (let i = 0; i < count; i++) {
          const port = await freePort();
          children.push(
            await startChild(
              compiledServer(),
              {
                PORT: String(port),
                HOST: '127.0.0.1',
                LOG_LEVEL: 'warn',
                TRUST_PROXY: '1',
                ACCOUNTS_STORE: 'redis',
                REDIS_URL: redis.url,
                JWT_SECRET: SECRET,
                RATE_LIMIT_ANONYMOUS: '1000000000',
                AUTH_RATE_LIMIT: '1000000000',
                LOGIN_FAILURE_LIMIT: '1000000000',
              },
              `http://127.0.0.1:${port}/api/ping`,
            ),
          );
        }
        nginx = new Nginx(
          nginxPort,
          children.map((child) => Number(new URL(child.url).port)),
        );
        await nginx.start();
        const register = {
          first_name: 'Bench',
          last_name: 'User',
          username: 'bench_user',
          email: 'bench@example.org',
          password: 'a benchmark passphrase',
        };
        await fetch(`${nginx.url}/api/v1/auth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(register),
        });
        const actor = (await (await fetch(`${nginx.url}/api/v1/actors?size=1`)).json()) as { uuid: string }[];
        const path = `${nginx.url}/api/v1/actors/${actor[0]!.uuid}`;
        await drive(path, {}, 200, { seconds: 1, connections: options.connections });
        const reads = (await drive(path, {}, 200, options)).rps;
        options.progress(`${count} instance(s): sign-ins`);
        const authentications = await signIns(nginx.url, options.seconds, 8);
        rows.push({ instances: count, reads, authentications });
      } finally {
        await nginx?.stop();
        for (const child of children) await child.stop();
      }
    }
  } finally {
    await redis.stop();
  }
  return rows;
}
