import { integer, oneOf, flag, proxyHops, publicUrl, optionalText, text, path, languageTag } from './parsers.ts';
import type { LogFormat, LogLevel } from './logger.ts';

/** The variables of the service itself: where it listens and reads its data, how it answers and logs, and its modes. */
export const SERVICE_VARIABLES = {
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
};
