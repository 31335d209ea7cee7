import { createRequire } from 'node:module';
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseQuery } from '../src/lib/query-string.ts';

// The static site's worker reads query strings without Koa: its errors quote the parsed parameters and its filters read
// them, so it must parse as Koa's ctx.query does on the server.
const koaQuery = createRequire(import.meta.url)('koa/lib/search-params.js') as {
  parse(text: string): Record<string, unknown>;
};

const same = (text: string) => {
  const ours = parseQuery(text);
  const koa = koaQuery.parse(text);
  assert.is(JSON.stringify(ours), JSON.stringify(koa), JSON.stringify(text));
  assert.equal(Object.keys(ours), Object.keys(koa));
  assert.is(Object.getPrototypeOf(ours), Object.getPrototypeOf(koa));
};

test('spellings that differ between parsers: escapes, plus, repeats, empty pairs, inherited keys', () => {
  for (const text of [
    '',
    'a=1&a=2&a=3',
    '=x',
    'a',
    '&&a=1&',
    'a=%E2%82',
    'a=%zz%41',
    'a+b=c+d',
    '__proto__=1&toString=2&constructor=3&__proto__=4',
    'a=1=2',
    '%C3%A9=%E9',
    'a=\u00e9%zz',
    'a=%',
    'a[]=1&a[]=2',
    'name=:Iris,Ana&name=x',
    'b=1&a=2&b=3',
  ])
    same(text);
  assert.equal(parseQuery('__proto__=1').__proto__, '1');
});

test('any query string: generated from a mix of escapes, separators and characters', () => {
  const piece = fc.oneof(
    fc.constantFrom('&', '=', '+', '%', '%2', '%41', '%E2%82%AC', '%C3', '%zz', '__proto__', 'a', 'b', '\u00e9'),
    fc.string({ maxLength: 4 }),
    fc.string({ unit: 'binary', maxLength: 3 }),
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 20 }), (pieces) => same(pieces.join(''))),
    { numRuns: 3000, includeErrorInReport: true },
  );
});

test.run();
