import {
  type Variable,
  integer,
  oneOf,
  flag,
  proxyHops,
  publicUrl,
  powerOfTwo,
  optionalSecret,
  optionalText,
  text,
  path,
  optionalPath,
  languageTag,
} from './parsers.ts';
import { GRAPHQL_VARIABLES } from './graphql-variables.ts';
import { LIMIT_VARIABLES } from './limit-variables.ts';
import type { LogFormat, LogLevel } from './logger.ts';

const PRODUCTION_SCRYPT_N = 2 ** 17;

/**
 * Every environment variable the service reads, with its default and meaning. The table in
 * docs/configuration.md lists exactly these (a test compares them, both ways).
 */
export const VARIABLES = {
  NODE_ENV: {
    default: '',
    description: '`production` refuses settings meant for tests (a `SCRYPT_N` below 131072)',
    parse: optionalText,
  },
  PORT: { default: '3000', description: 'TCP port to listen on (0 picks a free one)', parse: integer(0, 65535) },
  HOST: { default: '0.0.0.0', description: 'Address to bind', parse: text },
  DATA_DIR: { default: './data', description: 'Catalog data directory', parse: path },
  WATCH_DATA: {
    default: 'false',
    description: '`true` checks and serves every edit under `DATA_DIR` without a restart (`npm run dev` sets it)',
    parse: flag,
  },
  DEFAULT_LANGUAGE: {
    default: 'en-US',
    description: "Language served when a request names none; must be listed in the overview's `languages`",
    parse: languageTag,
  },
  MAX_PAGE_SIZE: {
    default: '50',
    description: 'Largest `size` a list answers with; larger requests are clamped',
    parse: integer(1, 1000),
  },
  CSV_MAX_ROWS: {
    default: '100000',
    description:
      'Largest `size` a list answers in CSV (`?format=csv`); pages above `MAX_PAGE_SIZE` are streamed, not cached',
    parse: integer(1, 10000000),
  },
  CACHE_MAX_AGE: {
    default: '300',
    description: 'Seconds browsers and proxies may reuse a catalog response (`Cache-Control: max-age`)',
    parse: integer(0, 31536000),
  },
  RESPONSE_CACHE_MB: {
    default: '64',
    description: 'Memory for serialized responses (least recently used evicted first); 0 turns the cache off',
    parse: integer(0, 4096),
  },
  LOG_LEVEL: {
    default: 'info',
    description: '`debug`, `info` (boot and one line per request), `warn`, `error` (only problems) or `silent`',
    parse: oneOf<LogLevel>('debug', 'info', 'warn', 'error', 'silent'),
  },
  LOG_FORMAT: {
    default: 'text',
    description: '`text` lines for a terminal, or `json`: one JSON object per line for log collectors',
    parse: oneOf<LogFormat>('text', 'json'),
  },
  TRUST_PROXY: {
    default: 'false',
    description:
      'Number of proxies in front that append to `X-Forwarded-For` (`true` = 1); the client address is read that ' +
      'many entries from the right',
    parse: proxyHops,
  },
  PUBLIC_URL: {
    default: '',
    description: 'Base URL the service reports (`/api`); unset: the address each request used',
    parse: publicUrl,
  },
  CLASSROOM: {
    default: 'off',
    description:
      '`on`: classroom mode (`npm run classroom` sets it): turns `SIMULATE` on, prints the addresses to give ' +
      'students with a QR code, and raises the per-address budgets to fit a class behind one address (see ' +
      '`CLASSROOM_DEFAULTS`)',
    parse: flag,
  },
  SIMULATE: {
    default: 'off',
    description:
      '`on`: requests may ask for simulated latency (`_delay=<ms>`) and failures (`_fail=' +
      '<status>`); on in classroom mode whatever it says',
    parse: flag,
  },
  ...LIMIT_VARIABLES,
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
  CATALOG_WRITES: {
    default: 'on',
    description:
      '`on`: MAINTAINER and ADMIN accounts may create, change and delete catalog records (POST, PATCH, DELETE); ' +
      '`off`: those routes answer 405',
    parse: flag,
  },
  CATALOG_OVERLAY_FILE: {
    default: '',
    description:
      'File keeping the catalog writes, one JSON line a write (the overlay over `DATA_DIR`, mode 0600); unset: ' +
      '`catalog-overlay.json` beside `ACCOUNTS_FILE`',
    parse: optionalPath,
  },
  SANDBOX_WRITES: {
    default: '200',
    description:
      "Classroom mode: writes one account's sandbox may hold; the next is refused with 409 until it is reset " +
      '(`DELETE /api/v1/sandbox`)',
    parse: integer(1, 100_000),
  },
  SANDBOX_MB: {
    default: '64',
    description:
      'Classroom mode: memory for all sandboxes together, estimated per write; a write past it is refused with ' +
      '409 (idle sandboxes past `SANDBOX_TTL` are dropped first)',
    parse: integer(1, 65536),
  },
  SANDBOX_TTL: {
    default: '86400',
    description: 'Classroom mode: seconds a sandbox may stay unused (no read or write) before it is dropped',
    parse: integer(1, 31536000),
  },
  SANDBOX_FILE: {
    default: '',
    description:
      'Classroom mode: file keeping the sandboxes, one JSON line a write (mode 0600); unset: `sandboxes.json` ' +
      'beside `ACCOUNTS_FILE`. Not used with `ACCOUNTS_STORE=redis`: the sandboxes then live in that Redis, ' +
      'shared by every instance',
    parse: optionalPath,
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
  REQUEST_TIMEOUT_SECONDS: {
    default: '10',
    description: 'Longest time to receive a whole request (headers and body) before a 408',
    parse: integer(1, 3600),
  },
  HEADERS_TIMEOUT_SECONDS: {
    default: '5',
    description: 'Longest time to receive the request headers before a 408',
    parse: integer(1, 3600),
  },
  ...GRAPHQL_VARIABLES,
  SHUTDOWN_GRACE_SECONDS: {
    default: '10',
    description: 'On SIGTERM or SIGINT, how long in-flight requests may take before their connections are closed',
    parse: integer(0, 3600),
  },
  MAX_CONNECTIONS: {
    default: '4096',
    description: 'Open connections in total; more are closed at once',
    parse: integer(1, 1000000),
  },
  MAX_CONNECTIONS_PER_ADDRESS: {
    default: '256',
    description:
      'Open connections per peer address; not applied behind a proxy (`TRUST_PROXY`), whose connections all ' +
      'share its address',
    parse: integer(1, 1000000),
  },
  CHANGE_STREAMS: {
    default: '2000',
    description:
      'Live change streams (`GET /api/v1/changes` as server-sent events) open at once; more are answered 503',
    parse: integer(1, 100000),
  },
  CHANGE_STREAMS_PER_ADDRESS: {
    default: '8',
    description: 'Change streams one address may hold open; more are answered 429',
    parse: integer(1, 100000),
  },
  CHANGE_STREAMS_PER_ACCOUNT: {
    default: '4',
    description: 'Change streams one account may hold open (from any address); more are answered 429',
    parse: integer(1, 100000),
  },
  CHANGE_HEARTBEAT_SECONDS: {
    default: '15',
    description: 'How often an idle change stream sends a comment line, so that proxies keep it open',
    parse: integer(1, 15),
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
} satisfies Record<string, Variable<unknown>>;

/**
 * The defaults that differ in classroom mode (`CLASSROOM=on`), used when the variable is unset:
 * a class of 30 may reach the server from one address (a school proxy, a NAT), so the budgets
 * per address are those of 30 clients (60 reads, 4 sign-ins and 200 pictures a minute each,
 * and two change streams).
 */
export const CLASSROOM_DEFAULTS: Partial<Record<keyof typeof VARIABLES, string>> = {
  RATE_LIMIT_ANONYMOUS: '1800',
  AUTH_RATE_LIMIT: '120',
  PICTURE_RATE_LIMIT: '6000',
  // A stream each for 30 students and the teacher's board, with room for a second tab.
  CHANGE_STREAMS_PER_ADDRESS: '64',
};

type Variables = typeof VARIABLES;
export type Config = { [K in keyof Variables]: Variables[K] extends Variable<infer T> ? T : never };

/**
 * Reads and validates the configuration. An empty variable counts as unset.
 *
 * @example
 * readConfig({ PORT: 'abc' });
 * // { error: "PORT must be an integer from 0 to 65535 (got 'abc')" }
 */
export function readConfig(env: NodeJS.ProcessEnv = process.env): { config: Config } | { error: string } {
  const config: Record<string, unknown> = {};
  const classroom = flag(env.CLASSROOM || VARIABLES.CLASSROOM.default);
  const defaults: Partial<Record<string, string>> = 'value' in classroom && classroom.value ? CLASSROOM_DEFAULTS : {};
  for (const [name, variable] of Object.entries(VARIABLES) as [string, Variable<unknown>][]) {
    const raw = env[name] || defaults[name] || variable.default;
    const parsed = variable.parse(raw);
    if ('accepts' in parsed) {
      const got = variable.secret ? `got ${Buffer.byteLength(raw)} bytes` : `got '${raw}'`;
      return { error: `${name} must be ${parsed.accepts} (${got})` };
    }
    config[name] = parsed.value;
  }
  const checked = config as Config;
  if (checked.CLASSROOM) checked.SIMULATE = true;
  if (checked.ACCOUNTS_STORE === 'redis' && !checked.REDIS_URL)
    return { error: 'ACCOUNTS_STORE=redis needs REDIS_URL, the Redis every instance shares' };
  if (checked.ACCOUNTS_STORE === 'redis' && !checked.JWT_SECRET) {
    return {
      error: 'ACCOUNTS_STORE=redis needs JWT_SECRET: every instance must sign and check tokens with the same key',
    };
  }
  if (checked.NODE_ENV === 'production' && checked.SCRYPT_N < PRODUCTION_SCRYPT_N) {
    return {
      error:
        `SCRYPT_N must be at least ${PRODUCTION_SCRYPT_N} when NODE_ENV=production (got '${checked.SCRYPT_N}'); ` +
        `lower values are for tests`,
    };
  }
  return { config: checked };
}
