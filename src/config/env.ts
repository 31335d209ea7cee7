import { type Variable, flag } from './parsers.ts';
import { ACCOUNT_VARIABLES } from './account-variables.ts';
import { CONNECTION_VARIABLES } from './connection-variables.ts';
import { GRAPHQL_VARIABLES } from './graphql-variables.ts';
import { LIMIT_VARIABLES } from './limit-variables.ts';
import { SERVICE_VARIABLES } from './service-variables.ts';
import { WRITE_VARIABLES } from './write-variables.ts';

const PRODUCTION_SCRYPT_N = 2 ** 17;

/**
 * Every environment variable the service reads, with its default and meaning, gathered from the tables by topic
 * (`*-variables.ts`). The table in docs/configuration.md lists exactly these (a test compares them, both ways).
 */
export const VARIABLES = {
  ...SERVICE_VARIABLES,
  ...LIMIT_VARIABLES,
  ...ACCOUNT_VARIABLES,
  ...WRITE_VARIABLES,
  ...CONNECTION_VARIABLES,
  ...GRAPHQL_VARIABLES,
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
