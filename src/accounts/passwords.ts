import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt's cost parameters: N (CPU and memory, a power of two), r (block size), p (parallelism). */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/**
 * A stored hash in the PHC string format: `$scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt>$<hash>`,
 * salt and hash in unpadded base64. It records its own parameters, so raising `SCRYPT_N`
 * later leaves older hashes verifiable.
 */
export const HASH_PATTERN = '^\\$scrypt\\$ln=(\\d+),r=(\\d+),p=(\\d+)\\$([A-Za-z0-9+/]+)\\$([A-Za-z0-9+/]+)$';

const HASH = new RegExp(HASH_PATTERN);
const SALT_BYTES = 16;
const KEY_BYTES = 32;

/**
 * The project's parameters for a cost `N`: r=8, p=1 (with N=2^17, OWASP's minimum for scrypt).
 *
 * @example
 * scryptParams(2 ** 17); // { N: 131072, r: 8, p: 1 }
 */
export function scryptParams(N: number): ScryptParams {
  return { N, r: 8, p: 1 };
}

/** Node's scrypt on libuv's thread pool, allowed the memory these parameters need. */
function derive(password: string, salt: Buffer, { N, r, p }: ScryptParams, length: number): Promise<Buffer> {
  // scrypt needs 128·N·r bytes for V plus 128·r·p for B; Node refuses above maxmem (default 32 MiB).
  const options: ScryptOptions = { N, r, p, maxmem: 128 * N * r * p + 2 ** 20 };
  // NFC: the same password typed on systems that compose accents differently hashes the same.
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, length, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

const base64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

/**
 * Hashes `password` with a fresh random salt.
 *
 * @example
 * await hashPassword('correct horse', scryptParams(2 ** 17)); // '$scrypt$ln=17,r=8,p=1$...$...'
 */
export async function hashPassword(password: string, params: ScryptParams): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params, KEY_BYTES);
  return `$scrypt$ln=${Math.log2(params.N)},r=${params.r},p=${params.p}$${base64(salt)}$${base64(key)}`;
}

/**
 * True when `password` produces `stored`, compared in constant time. Throws on a string
 * that is not a hash of this format (the accounts file is checked at load, so that is a bug).
 *
 * @example
 * await verifyPassword('correct horse', stored); // true
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = HASH.exec(stored);
  const [ln = 0, r = 0, p = 0] = match?.slice(1, 4).map(Number) ?? [];
  const salt = Buffer.from(match?.[4] ?? '', 'base64');
  const expected = Buffer.from(match?.[5] ?? '', 'base64');
  // A short hash must not verify: an empty one would make any password "equal".
  if (ln < 1 || ln > 24 || r < 1 || r > 64 || p < 1 || p > 16 || expected.length < 16) {
    throw new Error('password hash is not a valid $scrypt$ string');
  }
  const key = await derive(password, salt, { N: 2 ** ln, r, p }, expected.length);
  return timingSafeEqual(key, expected);
}
