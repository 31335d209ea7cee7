import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { Config } from '../../src/config/env.ts';
import type { Json } from './openapi.ts';
import { ROOT } from './spawn.ts';

export { startApp } from './compiled-server.ts';

/**
 * Settings every test server shares: quiet, unlimited, a scrypt cost low enough for hundreds
 * of hashes, and room for the hundreds of concurrent connections (and hashes) from one
 * address that the burst tests open to stand for many clients.
 */
export const TEST_ENV = {
  SCRYPT_N: '1024',
  LOG_LEVEL: 'silent',
  RATE_LIMIT: 'off',
  MAX_CONNECTIONS_PER_ADDRESS: '1000',
  HASH_QUEUE: '1000',
};

/** A fresh temporary folder (for an accounts file, say). */
export function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'catalog-test-'));
}

/** A server under test, reached through a real listener on 127.0.0.1. */
export interface TestServer {
  url: string;
  port: number;
  /** The configuration the server was started with. */
  config: Config;
  /** The accounts file, in a temporary folder unless the test named one. */
  file: string;
  /**
   * Every line the server logged as a problem (`warn` and `error`), whatever LOG_LEVEL says;
   * complete once `close` has resolved.
   */
  warnings: string[];
  /** `fetch` of a path on this server. */
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  /**
   * Stops the server. Throws when an answer it gave is not what its OpenAPI document describes
   * (test/helpers/contract.ts) or when it logged a 500.
   */
  close(): Promise<void>;
}

const resolvedDocuments = new Map<string, Json>();

/** `text`, an OpenAPI document, checked valid and with its `$ref`s resolved; one resolution per distinct document. */
export async function resolvedDocument(text: string): Promise<Json> {
  let resolved = resolvedDocuments.get(text);
  if (!resolved) {
    const validator = new Validator();
    const checked = await validator.validate(JSON.parse(text) as Json);
    if (!checked.valid)
      throw new Error(`the served OpenAPI document is not valid: ${JSON.stringify(checked.errors).slice(0, 500)}`);
    resolvedDocuments.set(text, (resolved = validator.resolveRefs() as Json));
  }
  return resolved;
}

/** The records of one data file of the embedded catalog, as the oracle tests compare with. */
export async function dataFile(file: string): Promise<Record<string, unknown>[]> {
  return JSON.parse(await readFile(join(ROOT, 'data', file), 'utf8')) as Record<string, unknown>[];
}

/** The parsed JSON body; throws with the status and the start of the text when it is not JSON. */
export async function json<T = unknown>(response: Response): Promise<T> {
  const text = await response.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`not JSON (${response.status}): ${text.slice(0, 200)}`);
  }
}
