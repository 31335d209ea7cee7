import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FAMILIES, type FieldInfo } from '../src/catalog/families.ts';
import { FILTER_OPERATORS } from '../src/catalog/filter-operators.ts';
import { parseFilter } from '../src/catalog/filter-syntax.ts';

/** A valid value of each kind. */
const SAMPLE: Record<FieldInfo['kind'], string> = {
  string: 'x',
  integer: '7',
  number: '7.5',
  date: '2024-02-29',
  'date-time': '2024-02-29T10:15:30.120',
};

/** The condition each operator reads into (on list fields where it differs). */
function expectedOp(syntax: string, field: FieldInfo): string {
  const ops: Record<string, string> = {
    v: 'eq',
    '=v': 'eq',
    '!v': 'ne',
    '*v': 'contains',
    '!*v': 'not-contains',
    ':a,b': field.list ? 'all' : 'any',
    '!:a,b': 'none',
    'a,b': 'all',
    '>v': 'range',
    '>=v': 'range',
    '<v': 'range',
    '<=v': 'range',
    'a::b': 'range',
  };
  return ops[syntax]!;
}

/** The operator written with real values: `a` and `b` and `v` all become the sample. */
function written(syntax: string, sample: string): string {
  return syntax.replace(/a|b|v/g, sample);
}

const fields = [...FAMILIES.values()].flatMap((family) => [...family.fields.values()]);

test('every operator documented for a field is read as the condition it documents', () => {
  for (const field of fields) {
    for (const operator of FILTER_OPERATORS.filter((o) => o.applies(field))) {
      const parsed = parseFilter(field, written(operator.syntax, SAMPLE[field.kind]));
      assert.ok('condition' in parsed, `${field.name} ${operator.syntax}: ${JSON.stringify(parsed)}`);
      assert.is(parsed.condition.op, expectedOp(operator.syntax, field), `${field.name} ${operator.syntax}`);
    }
  }
});

test('an operator not documented for a field is refused or read literally, never as that operator', () => {
  let refused = 0;
  for (const field of fields) {
    for (const operator of FILTER_OPERATORS.filter((o) => !o.applies(field))) {
      const parsed = parseFilter(field, written(operator.syntax, SAMPLE[field.kind]));
      if ('error' in parsed) {
        refused++;
        assert.match(parsed.error, new RegExp(`'${field.name}'`), 'the error names the field');
      } else {
        // `a::b` on text and `a,b` on a single value are plain values, compared for equality.
        assert.ok(
          ['a::b', 'a,b'].includes(operator.syntax),
          `${field.name} ${operator.syntax} read as ${parsed.condition.op}`,
        );
        assert.is(parsed.condition.op, 'eq');
      }
    }
  }
  assert.ok(refused > 0, 'some operators do not apply to some fields');
});

test('the comparison operators apply to numbers and dates only, the text ones to text only', () => {
  const names = (field: FieldInfo) => FILTER_OPERATORS.filter((o) => o.applies(field)).map((o) => o.syntax);
  const actors = FAMILIES.get('actors')!.fields;
  assert.equal(names(actors.get('gender')!), ['v', '=v', '!v', ':a,b', '!:a,b', '>v', '>=v', '<v', '<=v', 'a::b']);
  assert.equal(names(actors.get('nationality')!), ['v', '=v', '!v', '*v', '!*v', ':a,b', '!:a,b']);
  assert.equal(names(actors.get('nicknames')!), ['v', '=v', '!v', '*v', '!*v', ':a,b', '!:a,b', 'a,b']);
});

test.run();
