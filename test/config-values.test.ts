import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readConfig, VARIABLES, type Config } from '../src/config/env.ts';
import { TIERS } from '../src/limits/tiers.ts';

const SWITCH_WORDS = { true: ['true', 'on', '1', 'yes'], false: ['false', 'off', '0', 'no'] } as const;

/** The spellings people type: as written, upper case, capitalized. */
const cases = (word: string) => [word, word.toUpperCase(), word[0]!.toUpperCase() + word.slice(1)];

/** What `name=raw` configures, beside the settings `others` it needs. */
function valueOf(name: keyof Config, raw: string, others: Record<string, string> = {}): unknown {
  const result = readConfig({ ...others, [name]: raw });
  if ('error' in result) throw new Error(result.error);
  return result.config[name];
}

// The switches are found from their defaults, so a new one cannot be left with fewer spellings.
const switches = (Object.keys(VARIABLES) as (keyof Config)[]).filter((name) =>
  /^(true|false|on|off)$/.test(VARIABLES[name].default),
);

test('every switch takes true/false, on/off, 1/0 and yes/no in any case', () => {
  assert.equal([...switches].sort(), [
    'CATALOG_WRITES',
    'CLASSROOM',
    'RATE_LIMIT',
    'SIMULATE',
    'TRUST_PROXY',
    'WATCH_DATA',
  ]);
  for (const name of switches) {
    const [on, off] = [valueOf(name, 'true'), valueOf(name, 'false')];
    assert.is.not(on, off, name);
    for (const word of SWITCH_WORDS.true)
      for (const raw of cases(word)) assert.is(valueOf(name, raw), on, `${name}=${raw}`);
    for (const word of SWITCH_WORDS.false)
      for (const raw of cases(word)) assert.is(valueOf(name, raw), off, `${name}=${raw}`);
    const refused = readConfig({ [name]: 'maybe' });
    assert.ok(
      'error' in refused && refused.error.startsWith(`${name} must be `) && refused.error.endsWith("(got 'maybe')"),
      `${name}=maybe is refused`,
    );
  }
  assert.is(valueOf('TRUST_PROXY', 'on'), 1, 'a switched-on TRUST_PROXY is one proxy');
  assert.is(valueOf('TRUST_PROXY', '3'), 3, 'or a count of proxies');
});

test('every rate-limit tier (anonymous and each role) has its budget variable, RATE_LIMIT_<TIER>', () => {
  for (const tier of TIERS) {
    const name = `RATE_LIMIT_${tier.toUpperCase()}` as keyof Config;
    assert.ok(name in VARIABLES, `${name} is declared`);
    assert.is(valueOf(name, '7'), 7, name);
  }
});

test('classroom mode turns the simulation on and raises the per-address budgets left unset', () => {
  const classroom = readConfig({ CLASSROOM: 'on', AUTH_RATE_LIMIT: '15' });
  if ('error' in classroom) throw new Error(classroom.error);
  const { SIMULATE, RATE_LIMIT_ANONYMOUS, AUTH_RATE_LIMIT, PICTURE_RATE_LIMIT, RATE_LIMIT_BASIC } = classroom.config;
  assert.equal(
    { SIMULATE, RATE_LIMIT_ANONYMOUS, AUTH_RATE_LIMIT, PICTURE_RATE_LIMIT, RATE_LIMIT_BASIC },
    {
      SIMULATE: true,
      RATE_LIMIT_ANONYMOUS: 1800,
      AUTH_RATE_LIMIT: 15,
      PICTURE_RATE_LIMIT: 6000,
      RATE_LIMIT_BASIC: 300,
    },
  );
  assert.is(valueOf('RATE_LIMIT_ANONYMOUS', ''), 60, 'outside classroom mode the defaults stay');
  assert.is(valueOf('SIMULATE', 'off', { CLASSROOM: 'on' }), true, 'classroom mode implies SIMULATE');
});

test('named values are taken in any case and stored in lower case', () => {
  const named = {
    LOG_LEVEL: ['debug', 'info', 'warn', 'error', 'silent'],
    LOG_FORMAT: ['text', 'json'],
    ACCOUNTS_STORE: ['file', 'redis'],
  } as const;
  // Shared accounts also need the Redis and the key every instance shares.
  const others = { REDIS_URL: 'redis://127.0.0.1:6379', JWT_SECRET: 'k'.repeat(32) };
  for (const [name, values] of Object.entries(named) as [keyof typeof named, readonly string[]][]) {
    for (const value of values)
      for (const raw of cases(value)) assert.is(valueOf(name, raw, others), value, `${name}=${raw}`);
    assert.equal(readConfig({ [name]: 'verbose' }), {
      error: `${name} must be one of ${values.join(', ')} (got 'verbose')`,
    });
  }
});

test.run();
