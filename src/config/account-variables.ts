import { integer, oneOf, powerOfTwo, optionalSecret, optionalText, path } from './parsers.ts';

/** The variables of the accounts (see docs/accounts.md): where they are kept, their tokens and password hashes. */
export const ACCOUNT_VARIABLES = {
  ACCOUNTS_STORE: {
    default: 'file',
    description:
      '`file`: `ACCOUNTS_FILE`, for one instance; `redis`: shared by every instance through `REDIS_URL` (needs ' +
      '`JWT_SECRET`)',
    parse: oneOf('file', 'redis'),
  },
  ACCOUNTS_REDIS_TIMEOUT_MS: {
    default: '1000',
    description: 'Longest wait for Redis on an account request before it is answered 503',
    parse: integer(1, 60000),
  },
  ACCOUNTS_FILE: {
    default: 'var/accounts.json',
    description: 'JSON file holding the accounts (created with its folder at boot when missing, mode 0600)',
    parse: path,
  },
  JWT_SECRET: {
    default: '',
    description:
      'Key signing the bearer tokens (HS256), at least 32 bytes; unset: a random key kept in `jwt-secret` beside ' +
      '`ACCOUNTS_FILE`',
    parse: optionalSecret(32),
    secret: true,
  },
  TOKEN_TTL: { default: '3600', description: 'Seconds a bearer token stays valid', parse: integer(1, 31536000) },
  HASH_CONCURRENCY: {
    default: '2',
    description: 'Password hashes run at once (each takes a libuv thread and 128 MiB)',
    parse: integer(1, 64),
  },
  HASH_QUEUE: {
    default: '32',
    description: 'Sign-ins waiting for a hash slot before the next is refused with 503',
    parse: integer(0, 10000),
  },
  SCRYPT_N: {
    default: '131072',
    description: 'scrypt cost of new password hashes; **tests only** lower it (131072 = 2^17 is the OWASP minimum)',
    parse: powerOfTwo(10, 20),
  },
  ACCOUNT_PASSWORD: {
    default: '',
    description: "`npm run accounts -- create` only: the new account's password, for scripts (otherwise it prompts)",
    parse: optionalText,
    secret: true,
  },
};
