// Records as CSV (RFC 4180): one row per record, one column per field, for spreadsheets.
// Written here rather than with csv-stringify: the same text (test/csv.test.ts holds them equal
// on generated records) at well under half its CPU, which a page's budget needs (the issue's
// target is 1.5 times the JSON page's). Runs in a browser too (the static site's worker).

/** What a CSV answer is sent as; `header=present` tells a reader the first row names the columns. */
export const CSV_TYPE = 'text/csv; charset=utf-8; header=present';

/** Spreadsheets read a file as UTF-8 (accents and all) only when it starts with the byte order mark. */
export const BYTE_ORDER_MARK = '\uFEFF';

/** A cell that must be quoted: it holds the separator, a quote or a line break. */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * The first characters of a text a spreadsheet would read as a formula (OWASP's "CSV injection"):
 * `= + - @`, a tab, a carriage return, and the full-width `＝＋－＠` Apple Numbers reads as the
 * first four. Its cell gets a leading `'`. Codes, not a regular expression: cells are many.
 */
const FORMULA_STARTS = new Set([0x3d, 0x2b, 0x2d, 0x40, 0x09, 0x0d, 0xff1d, 0xff0b, 0xff0d, 0xff20]);

/** The text of a value: lists of texts one item per line, other lists and objects as JSON, absent as empty. */
function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.join('\n');
  return JSON.stringify(value);
}

/**
 * One cell: the value's text, a leading `'` where a spreadsheet would evaluate it (numbers are
 * never formulas, a negative one stays as it is), quoted where it must be.
 *
 * @example
 * csvCell('=HYPERLINK("x")'); // `"'=HYPERLINK(""x"")"`
 */
export function csvCell(value: unknown): string {
  if (typeof value === 'number') return String(value);
  let text = cellText(value);
  if (FORMULA_STARTS.has(text.charCodeAt(0))) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record's row in `columns`' order, with its line break. */
export function csvRow(columns: readonly string[], record: Readonly<Record<string, unknown>>): string {
  let row = '';
  for (let i = 0; i < columns.length; i++) {
    if (i > 0) row += ',';
    row += csvCell(record[columns[i]!]);
  }
  return `${row}\r\n`;
}

/** The start of a CSV answer: the byte order mark and the row of column names. */
export function csvHead(columns: readonly string[]): string {
  return `${BYTE_ORDER_MARK}${columns.map(csvCell).join(',')}\r\n`;
}

/**
 * A whole CSV answer of `records`.
 *
 * @example
 * csvText(['uuid', 'first_name'], [{ uuid: 'a1', first_name: 'Lívia' }]); // '\uFEFFuuid,first_name\r\na1,Lívia\r\n'
 */
export function csvText(columns: readonly string[], records: Iterable<Readonly<Record<string, unknown>>>): string {
  let text = csvHead(columns);
  for (const record of records) text += csvRow(columns, record);
  return text;
}
