import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import Papa from 'papaparse';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { csvText } from '../src/reads/csv.ts';
import { tokenWithRole } from './helpers/admin.ts';
import { startApp, tempDir } from './helpers/http.ts';

// Lists in CSV, read back by a real CSV parser (papaparse) and held equal to the JSON answer of
// the same request field by field; the encoder held equal to csv-stringify's on generated records.

type Json = Record<string, unknown>;
const FAMILIES = ['actors', 'characters', 'episodes', 'seasons', 'locations', 'soundtracks', 'games'];
const LANGUAGES = ['en-US', 'pt-BR', 'es-ES'];
const BOM = '\uFEFF';

const app = await startApp({}, await tempDir());
const maintainer = await tokenWithRole(app, 'MAINTAINER', 'csv');
test.after(() => app.close());

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(app.url + path, { headers });
  // Decoded keeping the byte order mark, which response.text() would drop.
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, text };
}

/** The rows of a CSV answer as papaparse reads them: the header row, then one object per record. */
function parsed(text: string): { columns: string[]; rows: Record<string, string>[] } {
  assert.ok(text.startsWith(BOM), 'a CSV answer starts with the byte order mark');
  assert.ok(text.endsWith('\r\n'), 'its last row ends with CRLF');
  const result = Papa.parse<Record<string, string>>(text.slice(1, -2), { header: true, newline: '\r\n' });
  assert.equal(result.errors, [], 'papaparse reads it without an error');
  return { columns: result.meta.fields ?? [], rows: result.data };
}

/** A JSON value read back from its CSV cell, as docs/api.md states the cells: the inverse of the server's writing. */
function fromCell(cell: string, like: unknown): unknown {
  if (like === undefined || like === null) return cell === '' ? like : cell;
  if (typeof like === 'number') return Number(cell);
  if (typeof like === 'boolean') return cell === 'true';
  if (Array.isArray(like) && like.every((item) => typeof item === 'string'))
    return cell === '' ? [] : cell.split('\n').map(undefused);
  if (typeof like === 'object') return JSON.parse(cell);
  return undefused(cell);
}

/** A text cell without the `'` that defuses a formula. */
const undefused = (cell: string) => (/^'[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(cell) ? cell.slice(1) : cell);

/** Asserts that `path` in CSV (`?format=csv`) holds the JSON answer's records, field by field, with its paging. */
async function sameAsJson(path: string): Promise<number> {
  const json = await get(path);
  const csv = await get(`${path}${path.includes('?') ? '&' : '?'}format=csv`);
  assert.is(csv.status, json.status, path);
  if (json.status !== 200) return 0;
  assert.is(csv.headers.get('content-type'), 'text/csv; charset=utf-8; header=present');
  assert.match(String(csv.headers.get('content-disposition')), /^attachment; filename="[a-z]+\.csv"$/);
  for (const name of [
    'x-pagination-page-index',
    'x-pagination-page-size',
    'x-pagination-item-total',
    'content-language',
  ])
    assert.is(csv.headers.get(name), json.headers.get(name), `${path}: ${name}`);
  const records = JSON.parse(json.text) as Json[];
  const { columns, rows } = parsed(csv.text);
  assert.is(rows.length, records.length, `${path}: rows`);
  records.forEach((record, i) => {
    for (const name of Object.keys(record)) assert.ok(columns.includes(name), `${path}: column ${name}`);
    for (const name of columns)
      assert.equal(fromCell(rows[i]![name]!, record[name]), record[name], `${path}: record ${i}, ${name}`);
  });
  return records.length;
}

test('every list, in every language, with generated filters, sort, paging, search and shape, equals its JSON', async () => {
  let compared = 0;
  for (const family of FAMILIES) {
    const [first] = JSON.parse((await get(`/api/v1/${family}?size=1`)).text) as Json[];
    const fields = Object.keys(first!).filter((name) => !['uuid', 'href'].includes(name));
    const word = Object.values(first!).find((value) => typeof value === 'string' && /^[A-Za-zÀ-ÿ]{3,}/.test(value));
    for (const language of LANGUAGES) {
      const asked = [
        `?language=${language}&size=50`,
        `?language=${language}&size=4&page=2&sort=${fields[0]},desc`,
        `?language=${language}&fields=${fields.slice(0, 3).join(',')}`,
        `?language=${language}&q=${encodeURIComponent(String(word ?? 'a').split(' ')[0]!)}`,
        `?language=${language}&page=99`,
      ];
      for (const query of asked) compared += await sameAsJson(`/api/v1/${family}${query}`);
    }
  }
  assert.ok(compared > 500, `${compared} records compared`);
  // Relations expanded: the related records are a JSON object (or list of them) in one cell.
  assert.ok((await sameAsJson('/api/v1/actors?expand=character&size=5')) > 0);
  assert.ok((await sameAsJson('/api/v1/seasons?expand=episodes&size=2&language=pt-BR')) > 0);
});

test('hostile leading characters are defused; accents, commas, quotes and line breaks come back whole', async () => {
  const names = [
    '=HYPERLINK("http://example.com/x","click")',
    '+1+2',
    '-2+3',
    '@SUM(A1:A2)',
    '\tTabbed',
    '\rReturned',
    'Praça "Velha", Açores\nsegunda linha',
  ];
  for (const name of names) {
    const response = await fetch(`${app.url}/api/v1/locations`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${maintainer}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    assert.is(response.status, 201, name);
  }
  const csv = await get('/api/v1/locations?format=csv&size=100&sort=created_at,desc');
  const { rows } = parsed(csv.text);
  const byName = new Map(rows.map((row) => [row.name!, row]));
  for (const name of names.slice(0, 6)) assert.ok(byName.has(`'${name}`), `${JSON.stringify(name)} is led by '`);
  assert.ok(byName.has(names[6]!), 'accents, a comma, quotes and a line break come back as written');
  for (const row of rows)
    for (const cell of Object.values(row)) assert.not.match(cell, /^[=+@\t\r]/, `a cell no spreadsheet evaluates`);
  assert.ok(csv.text.split('\r\n').length > rows.length, 'rows end in CRLF');
  assert.ok((await sameAsJson('/api/v1/locations?size=100&sort=created_at,desc')) >= names.length);
});

test('the format is chosen by format=, else by Accept; a wrong one is a 400 naming it', async () => {
  const csvType = /^text\/csv/;
  const cases: [string, Record<string, string>, RegExp | number][] = [
    ['?format=csv', {}, csvType],
    ['?format=CSV', {}, csvType],
    ['?format=json', { Accept: 'text/csv' }, /^application\/json/],
    ['', { Accept: 'text/csv' }, csvType],
    ['', { Accept: 'text/csv;q=0.5, application/json' }, /^application\/json/],
    ['', { Accept: '*/*' }, /^application\/json/],
    ['', { Accept: 'text/html' }, /^application\/json/],
    ['', { Accept: `text/csv${', x'.repeat(2_000)}` }, csvType],
    ['?format=xml', {}, 400],
    ['?format=__proto__', {}, 400],
    ['?format=toString', {}, 400],
    ['?format=', {}, 400],
    ['?format=csv&format=json', {}, 400],
  ];
  for (const [query, headers, expected] of cases) {
    const answer = await get(`/api/v1/actors${query}`, headers);
    if (typeof expected === 'number') {
      assert.is(answer.status, expected, query);
      assert.match((JSON.parse(answer.text) as Json).message as string, "'format'", query);
    } else {
      assert.is(answer.status, 200, `${query} ${JSON.stringify(headers).slice(0, 60)}`);
      assert.match(String(answer.headers.get('content-type')), expected, query);
    }
  }
  // Chosen by Accept, the answer says it varies on it; its Link keeps every parameter.
  const accepted = await get('/api/v1/actors?size=2', { Accept: 'text/csv' });
  assert.match(String(accepted.headers.get('vary')), /\bAccept\b/);
  assert.match(String(accepted.headers.get('link')), /size=2/);
  // A size beyond the most is lowered to it, in any number of digits.
  const huge = await get(`/api/v1/actors?format=csv&size=${'9'.repeat(40)}`);
  assert.is(huge.status, 200);
  assert.is(parsed(huge.text).rows.length, Number(huge.headers.get('x-pagination-item-total')));
});

test('one URL asked in turn for CSV and JSON by Accept: every answer, replayed or not, is of the type asked', async () => {
  const path = '/api/v1/episodes?size=4&language=es-ES';
  for (let i = 0; i < 12; i++) {
    const accept = ['text/csv', 'application/json', '*/*', 'text/csv, application/json;q=0.1'][i % 4]!;
    const answer = await get(path, { Accept: accept });
    const csv = accept.startsWith('text/csv');
    assert.match(String(answer.headers.get('content-type')), csv ? /^text\/csv/ : /^application\/json/, accept);
    assert.is(answer.text.startsWith(BOM), csv, `${accept}: round ${Math.floor(i / 4)}`);
  }
});

test('a CSV page keeps its file name through the fast path, and its 304 sends none', async () => {
  // Remembered from a 304 first, then from a 200: the answers replayed after each are as they should be.
  for (const [path, order] of [
    ['/api/v1/characters?format=csv&size=5', [true, true, false, false, false, true]],
    ['/api/v1/characters?format=csv&size=6', [false, false, false, true, true, false, false]],
  ] as const) {
    await csvAnswersIn(path, order);
  }
});

/** Asks `path` plainly or with its ETag in the order given, checking each answer's status and file name. */
async function csvAnswersIn(path: string, order: readonly boolean[]): Promise<void> {
  const { headers } = await get(path);
  const etag = String(headers.get('etag'));
  for (const conditional of order) {
    // A Cache-Control of our own: fetch would add `no-cache` to a conditional request, and get a 200.
    const answer = await get(path, conditional ? { 'If-None-Match': etag, 'Cache-Control': 'max-age=0' } : {});
    assert.is(answer.status, conditional ? 304 : 200);
    const disposition = answer.headers.get('content-disposition');
    assert.is(disposition, conditional ? null : 'attachment; filename="characters.csv"');
  }
}

test('the encoder writes what csv-stringify writes, for generated records', () => {
  const text = fc.string({ unit: 'grapheme', maxLength: 12 });
  const hostile = fc.constantFrom('=1+1', '+1', '-1', '@x', '\tx', '\rx', '"q"', 'a,b', 'a\nb', 'a\r\nb', '');
  const value = fc.oneof(
    text,
    hostile,
    fc.integer({ min: -1000, max: 1000 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.array(fc.oneof(text, hostile), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 4 }), text, { maxKeys: 2 }),
    fc.constant(null),
  );
  const columns = ['a', 'b', 'c'];
  fc.assert(
    fc.property(
      fc.array(fc.record({ a: value, b: value, c: value }, { requiredKeys: [] }), { maxLength: 5 }),
      (rows) => {
        const theirs = stringify(rows, {
          bom: true,
          header: true,
          columns,
          record_delimiter: 'windows',
          escape_formulas: true,
          // Theirs quotes a lone \n only when told: RFC 4180 quotes every line break.
          quoted_match: /[\r\n]/,
          cast: {
            number: (n) => String(n),
            object: (v) =>
              Array.isArray(v) && v.every((item) => typeof item === 'string') ? v.join('\n') : JSON.stringify(v),
          },
        });
        assert.is(csvText(columns, rows), theirs);
      },
    ),
    { numRuns: 2_000, seed: 55 },
  );
});

test.run();
