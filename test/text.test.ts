import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { decimal } from '../src/lib/text.ts';
import { utf8Length } from '../src/lib/utf8.ts';

test('decimal writes whole numbers as String does, around every group of three digits', () => {
  const numbers = [
    0,
    7,
    999,
    1000,
    1001,
    10_010,
    999_999,
    1_000_000,
    1_234_567,
    999_999_998,
    1_000_000_000,
    1_795_000_060,
    Number.MAX_SAFE_INTEGER,
  ];
  for (let n = 0; n < 3000; n += 7) numbers.push(n, n * 1009, n * 1_000_003);
  for (const n of numbers) assert.is(decimal(n), String(n), String(n));
});

test('decimal leaves what is not a whole number from 0 to String', () => {
  for (const n of [-1, -1000, 1.5, 1e21, Infinity, Number.NaN]) assert.is(decimal(n), String(n), String(n));
});

test("utf8Length counts as Node's Buffer.byteLength does, lone surrogates and pairs included", () => {
  for (const text of ['', 'a', 'Maré', '€', '\u{1F4A9}', '\ud800', '\udc00x', '\ud800\ud800\udc00'])
    assert.is(utf8Length(text), Buffer.byteLength(text), JSON.stringify(text));
  fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => utf8Length(text) === Buffer.byteLength(text)));
});

test.run();
