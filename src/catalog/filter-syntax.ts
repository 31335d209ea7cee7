import type { FieldInfo } from './families.ts';
import type { Scalar } from './field-index.ts';
import type { Condition } from './filter.ts';
import { hrefOf } from './href.ts';
import { isLocalDateTime, UUID_PATTERN } from '../lib/formats.ts';

const UUID = new RegExp(UUID_PATTERN);
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const EXPECTED: Record<FieldInfo['kind'], string> = {
  string: 'text',
  integer: 'an integer',
  number: 'a number',
  date: 'a date (YYYY-MM-DD)',
  'date-time': 'a date-time (YYYY-MM-DDTHH:mm:ss.SSS)',
};

function isDate(value: string): boolean {
  return DATE.test(value) && isLocalDateTime(`${value}T00:00:00`);
}

/**
 * Types one raw value by the field's schema, or says what was expected: every face of the
 * API (query strings, GraphQL arguments) types filter values here.
 *
 * @example
 * typed(family('episodes').fields.get('season')!, '1b3f…'); // { value: '/api/v1/seasons/1b3f…' }
 */
export function typed(field: FieldInfo, raw: string): { value: Scalar } | { error: string } {
  const bad = { error: `'${raw}' is not ${EXPECTED[field.kind]} (filter '${field.name}')` };
  switch (field.kind) {
    case 'integer':
      return /^-?\d{1,15}$/.test(raw) ? { value: Number(raw) } : bad;
    case 'number':
      return raw.trim() !== '' && Number.isFinite(Number(raw)) ? { value: Number(raw) } : bad;
    case 'date':
      return isDate(raw) ? { value: raw } : bad;
    case 'date-time':
      return isLocalDateTime(raw) ? { value: raw } : bad;
    case 'string':
      // Relations also accept the bare uuid of the related record.
      if (field.relation && UUID.test(raw)) return { value: hrefOf(field.relation, raw) };
      return { value: raw };
  }
}

function typedList(field: FieldInfo, raw: string): { values: Scalar[] } | { error: string } {
  const values: Scalar[] = [];
  for (const part of raw.split(',')) {
    const one = typed(field, part);
    if ('error' in one) return one;
    values.push(one.value);
  }
  return { values };
}

/** Numbers and dates (not lists) compare and take ranges. */
const ordered = (field: FieldInfo) => field.kind !== 'string' && !field.list;
/** Text fields, lists of text included, take the substring operators. */
const textual = (field: FieldInfo) => field.kind === 'string';

/** One operator of the filter syntax: how it is written and what it means on a field. */
export interface FilterOperator {
  syntax: string;
  meaning: string;
  /** Meaning on a list field, where it differs. */
  onList?: string;
  applies(field: FieldInfo): boolean;
}

/**
 * Every operator `parseFilter` reads and the fields it applies to, as the OpenAPI document
 * describes them (a test holds the two together).
 */
export const FILTER_OPERATORS: readonly FilterOperator[] = [
  { syntax: 'v', meaning: 'equals', onList: 'contains v', applies: () => true },
  { syntax: '=v', meaning: 'equals, taking v literally', onList: 'contains v, taken literally', applies: () => true },
  { syntax: '!v', meaning: 'not equal', onList: 'does not contain v', applies: () => true },
  { syntax: '*v', meaning: 'contains the text, ignoring case', onList: 'an element contains the text', applies: textual },
  { syntax: '!*v', meaning: 'does not contain the text', onList: 'no element contains the text', applies: textual },
  { syntax: ':a,b', meaning: 'one of', onList: 'contains all of them', applies: () => true },
  { syntax: '!:a,b', meaning: 'none of', onList: 'contains none of them', applies: () => true },
  { syntax: 'a,b', meaning: 'contains all of them', applies: (field) => field.list },
  { syntax: '>v', meaning: 'greater than', applies: ordered },
  { syntax: '>=v', meaning: 'greater than or equal', applies: ordered },
  { syntax: '<v', meaning: 'less than', applies: ordered },
  { syntax: '<=v', meaning: 'less than or equal', applies: ordered },
  { syntax: 'a::b', meaning: 'between, inclusive', applies: ordered },
];

/**
 * Reads one filter value in HawAPI's operator syntax (the operator only at the start):
 * `v` equals, `=v` equals literally, `!v` not equal, `*v` contains, `!*v` does not contain,
 * `:a,b` one of (lists: all of), `!:a,b` none of, `>v` `>=v` `<v` `<=v` compare, `a::b`
 * between (numbers and dates). On list fields a plain `a,b` means "contains all of them".
 *
 * @example
 * parseFilter({ name: 'gender', kind: 'integer', list: false, translated: false }, ':1,2');
 * // { condition: { field: 'gender', op: 'any', values: [1, 2] } }
 */
export function parseFilter(field: FieldInfo, raw: string): { condition: Condition } | { error: string } {
  const name = field.name;
  if (raw === '') return { error: `Filter '${name}' needs a value` };
  const operator = /^(!\*|!:|>=|<=|!|\*|:|>|<|=)/.exec(raw)?.[1] ?? '';
  const rest = raw.slice(operator.length);
  if (operator !== '=' && operator !== '' && rest === '') return { error: `Filter '${name}' has the operator '${operator}' but no value` };
  const fail = (what: string) => ({ error: `Operator '${what}' does not apply to ${field.list ? 'the list' : field.kind} field '${name}'` });
  const single = (op: 'eq' | 'ne') => {
    const one = typed(field, rest);
    return 'error' in one ? one : { condition: { field: name, op, value: one.value } };
  };
  const several = (op: 'any' | 'all' | 'none') => {
    const many = typedList(field, rest);
    return 'error' in many ? many : { condition: { field: name, op, values: many.values } };
  };
  switch (operator) {
    case '=':
      return single('eq');
    case '!':
      return single('ne');
    case '*':
    case '!*':
      if (!textual(field)) return fail(operator);
      return { condition: { field: name, op: operator === '*' ? 'contains' : 'not-contains', value: rest } };
    case ':':
      return several(field.list ? 'all' : 'any');
    case '!:':
      return several('none');
    case '>':
    case '>=':
    case '<':
    case '<=': {
      if (!ordered(field)) return fail(operator);
      const one = typed(field, rest);
      if ('error' in one) return one;
      const range = operator[0] === '>' ? { min: one.value, minInclusive: operator === '>=' } : { max: one.value, maxInclusive: operator === '<=' };
      return { condition: { field: name, op: 'range', range } };
    }
  }
  // Text may contain '::' literally; only numbers and dates read it as "between".
  if (raw.includes('::') && ordered(field)) {
    const [from, to, ...extra] = raw.split('::');
    if (extra.length > 0 || !from || !to) return { error: `Filter '${name}' between needs exactly 'a::b', got '${raw}'` };
    const min = typed(field, from);
    if ('error' in min) return min;
    const max = typed(field, to);
    if ('error' in max) return max;
    return { condition: { field: name, op: 'range', range: { min: min.value, max: max.value } } };
  }
  return field.list && raw.includes(',') ? several('all') : single('eq');
}
