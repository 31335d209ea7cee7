import { integer, flag, budget, redisUrl } from './parsers.ts';

/** The variables of the rate limits (see docs/rate-limits.md), in the order docs/configuration.md lists them. */
export const LIMIT_VARIABLES = {
  RATE_LIMIT: {
    default: 'on',
    description: '`off` disables every rate limit (classrooms, benchmarks, tests)',
    parse: flag,
  },
  RATE_LIMIT_WINDOW_SECONDS: {
    default: '60',
    description: 'Length of the rate-limit window',
    parse: integer(1, 86400),
  },
  RATE_LIMIT_ANONYMOUS: {
    default: '60',
    description: 'Requests per window for a client without a token, per address',
    parse: budget,
  },
  RATE_LIMIT_BASIC: { default: '300', description: 'Requests per window for a BASIC account', parse: budget },
  RATE_LIMIT_DEV: { default: '1000', description: 'Requests per window for a DEV account', parse: budget },
  RATE_LIMIT_MAINTAINER: {
    default: '1000',
    description: 'Requests per window for a MAINTAINER account',
    parse: budget,
  },
  RATE_LIMIT_ADMIN: { default: 'unlimited', description: 'Requests per window for an ADMIN account', parse: budget },
  AUTH_RATE_LIMIT: {
    default: '10',
    description: 'Requests per window to `/api/v1/auth/*`, per address',
    parse: budget,
  },
  PICTURE_RATE_LIMIT: {
    default: '600',
    description:
      "Requests per window for the catalog's pictures (`/images/*`), per address; they count in no other budget",
    parse: budget,
  },
  LOGIN_FAILURE_LIMIT: {
    default: '5',
    description: 'Failed logins per username before it is refused with 429, whatever the address',
    parse: budget,
  },
  LOGIN_FAILURE_WINDOW_MINUTES: {
    default: '15',
    description: 'Window of `LOGIN_FAILURE_LIMIT`',
    parse: integer(1, 1440),
  },
  REDIS_URL: {
    default: '',
    description:
      'Share rate limits between instances through this Redis (e.g. `redis://127.0.0.1:6379`); empty keeps them ' +
      'in memory',
    parse: redisUrl,
  },
  RATE_LIMIT_REDIS_TIMEOUT_MS: {
    default: '5',
    description: 'Longest wait for Redis before a request is served unlimited (fail open)',
    parse: integer(1, 10000),
  },
};
