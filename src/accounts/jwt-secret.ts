import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeWholeFile } from '../lib/whole-file.ts';
import { keepPrivate } from '../lib/private-file.ts';
import { StoreFileError } from '../lib/synced-json-file.ts';

const MIN_BYTES = 32;

/** The key that signs tokens and a boot-log line saying where it came from (never the key). */
export interface JwtSecret {
  key: Uint8Array;
  origin: string;
}

async function readSecretFile(file: string): Promise<Uint8Array> {
  const key = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64url');
  if (key.length < MIN_BYTES) {
    throw new StoreFileError(
      file,
      `holds ${key.length} bytes of key, a JWT secret needs at least ${MIN_BYTES}; delete it to generate a new ` +
        `one (that ends every issued token)`,
    );
  }
  return key;
}

/** Creates `file` with a fresh 256-bit key, whole, unless it already exists (another process won the race). */
async function createSecretFile(file: string): Promise<boolean> {
  try {
    await writeWholeFile(file, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, exclusive: true });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new StoreFileError(file, `cannot be created (${(error as NodeJS.ErrnoException).code})`);
  }
}

/**
 * The JWT signing key: `JWT_SECRET` when set (the config module already refused one under
 * 32 bytes), otherwise the key kept in `jwt-secret` beside the accounts file, generated on
 * first boot with mode 0600 so tokens survive restarts.
 *
 * @example
 * const { key, origin } = await jwtSecret(undefined, 'var/accounts.json');
 * log.info(origin); // 'JWT secret: generated a 256-bit key in var/jwt-secret (mode 0600)'
 */
export async function jwtSecret(
  configured: string | undefined,
  accountsFile: string | undefined,
  warn: (line: string) => void = () => {},
): Promise<JwtSecret> {
  if (configured) return { key: new TextEncoder().encode(configured), origin: 'JWT secret: from JWT_SECRET' };
  // The configuration refuses shared accounts without JWT_SECRET: a key of one instance's own would not do.
  if (!accountsFile) throw new Error('JWT_SECRET is required when the accounts are shared');
  const file = join(dirname(accountsFile), 'jwt-secret');
  await keepPrivate(file, warn);
  try {
    return { key: await readSecretFile(file), origin: `JWT secret: read from ${file}` };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      if (error instanceof StoreFileError) throw error;
      throw new StoreFileError(file, `cannot be read (${(error as NodeJS.ErrnoException).code})`);
    }
  }
  const created = await createSecretFile(file);
  const origin = created
    ? `JWT secret: generated a 256-bit key in ${file} (mode 0600), kept for the next boots`
    : `JWT secret: read from ${file}`;
  return { key: await readSecretFile(file), origin };
}
