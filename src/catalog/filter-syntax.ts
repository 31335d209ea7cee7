import type { FieldInfo } from './families.ts';
import type { Scalar } from './field-index.ts';
import type { Condition } from './filter.ts';
import { written, type QueryStringOperator } from './filter-operators.ts';
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
  const prefix = /^(!\*|!:|>=|<=|!|\*|:|>|<|=)/.exec(raw)?.[1] ?? '';
  const rest = raw.slice(prefix.length);
  if (prefix !== '=' && prefix !== '' && rest === '')
    return { error: `Filter '${name}' has the operator '${prefix}' but no value` };
  const apply = (operator: QueryStringOperator, values: { values: Scalar[] } | { error: string }) =>
    'error' in values ? values : { condition: operator.condition(field, values.values) };
  const one = (text: string) => {
    const value = typed(field, text);
    return 'error' in value ? value : { values: [value.value] };
  };
  if (prefix !== '') {
    const operator = written(prefix.startsWith(':') || prefix.startsWith('!:') ? `${prefix}a,b` : `${prefix}v`);
    if (!operator.applies(field))
      return {
        error: `Operator '${prefix}' does not apply to ${field.list ? 'the list' : field.kind} field '${name}'`,
      };
    return apply(
      operator,
      operator.takes === 'many' ? typedList(field, rest) : operator.literal ? { values: [rest] } : one(rest),
    );
  }
  // Text may contain '::' literally; only numbers and dates read it as "between".
  const between = written('a::b');
  if (raw.includes('::') && between.applies(field)) {
    const [from, to, ...extra] = raw.split('::');
    if (extra.length > 0 || !from || !to)
      return { error: `Filter '${name}' between needs exactly 'a::b', got '${raw}'` };
    const min = typed(field, from);
    if ('error' in min) return min;
    const max = typed(field, to);
    if ('error' in max) return max;
    return { condition: between.condition(field, [min.value, max.value]) };
  }
  const all = written('a,b');
  return all.applies(field) && raw.includes(',') ? apply(all, typedList(field, raw)) : apply(written('v'), one(raw));
}
