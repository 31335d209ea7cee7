import { mkdtemp } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAccounts } from '../../src/accounts/open.ts';
import type { AccountService } from '../../src/accounts/service.ts';
import type { Catalog } from '../../src/catalog/catalog.ts';
import { loadCatalog } from '../../src/catalog/load.ts';
import { readConfig } from '../../src/config/env.ts';
import { createLogger } from '../../src/config/logger.ts';
import { createApp } from '../../src/http/app.ts';
import { serve } from '../../src/http/serve.ts';
import { ServedCatalog } from '../../src/http/state.ts';
import { ROOT } from './spawn.ts';

/** Settings every test server shares: quiet, and a scrypt cost low enough for hundreds of hashes. */
export const TEST_ENV = { SCRYPT_N: '1024', LOG_LEVEL: 'silent' };

let catalog: Promise<Catalog> | undefined;

async function embeddedCatalog(): Promise<Catalog> {
  const result = await loadCatalog(join(ROOT, 'data'), { defaultLanguage: 'en-US' });
  if (!result.ok) throw new Error('the embedded catalog does not load');
  return result.catalog;
}

/** A fresh temporary folder for an accounts file. */
export async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'accounts-test-'));
}

export interface RunningApp {
  url: string;
  file: string;
  accounts: AccountService;
  close(): Promise<void>;
}

/**
 * The real app on 127.0.0.1 and a free port, its accounts in `<dir>/accounts.json` (a fresh
 * temporary folder unless given), configured by TEST_ENV and `env`.
 */
export async function startApp(env: Record<string, string> = {}, dir?: string): Promise<RunningApp> {
  const file = join(dir ?? (await tempDir()), 'accounts.json');
  const settings = readConfig({ ...TEST_ENV, ACCOUNTS_FILE: file, ...env });
  if ('error' in settings) throw new Error(settings.error);
  const { config } = settings;
  const log = createLogger(config.LOG_LEVEL);
  const accounts = await openAccounts(config, log);
  catalog ??= embeddedCatalog();
  const app = createApp({ served: new ServedCatalog(await catalog, 0), config, log, accounts });
  const server: Server = await serve(app, 0, '127.0.0.1');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    file,
    accounts,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A response read once: status, headers and the body parsed as JSON when there is one. */
export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** POSTs `body` as JSON (or as given when it is a string) with optional extra headers. */
export async function post(url: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return readAnswer(response);
}

/** GETs `path`, with a bearer token when given. */
export async function get(url: string, path: string, token?: string): Promise<Answer> {
  return readAnswer(await fetch(`${url}${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} }));
}

/** Reads a fetch response into an Answer. */
export async function readAnswer(response: Response): Promise<Answer> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : {} };
}

/** A valid registration body; `n` makes the username and email unique. */
export function newUser(n: number | string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { first_name: 'Test', last_name: `User ${n}`, username: `user_${n}`, email: `user${n}@example.org`, password: `password of ${n}`, ...extra };
}

/** Registers `newUser(n, extra)` and returns its token; fails the test on anything but 201. */
export async function registered(url: string, n: number | string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<string> {
  const { status, body } = await post(url, '/api/v1/auth/register', newUser(n, extra), headers);
  if (status !== 201) throw new Error(`registering ${n}: ${status} ${JSON.stringify(body)}`);
  return String(body.token);
}
