import Negotiator from 'negotiator';
import { once } from '../catalog/list-request.ts';
import { HttpError } from '../lib/http-error.ts';
import { memo } from '../lib/memo.ts';
import type { ReadExchange } from './types.ts';

/** What a list answers in. */
export type ListFormat = 'json' | 'csv';

const FORMATS: readonly ListFormat[] = ['json', 'csv'];

/** `Accept`'s choice between JSON (first, so `*\/*` and no match keep JSON) and CSV, per value of the header. */
const acceptedFormat = memo(
  (accept): ListFormat =>
    new Negotiator({ headers: { accept } }).mediaType(['application/json', 'text/csv']) === 'text/csv' ? 'csv' : 'json',
  { entries: 1000, maxLength: 200 },
);

/**
 * The format a list is asked in: the `format` parameter (`json` or `csv`), which browsers and
 * spreadsheet tools that cannot set headers can give, else `Accept` (`text/csv` preferred to
 * `application/json`), else JSON. Answers chosen by `Accept` vary on it.
 *
 * @example
 * // GET /api/v1/actors?format=csv
 * listFormat(x); // 'csv'
 */
export function listFormat<Entry>(x: ReadExchange<Entry>): ListFormat {
  const asked = once<string>('format', x.query.format);
  if (asked !== undefined) {
    const format = asked.toLowerCase();
    if (!(FORMATS as readonly string[]).includes(format))
      throw new HttpError(400, `Parameter 'format' takes ${FORMATS.join(' or ')}, got '${asked.slice(0, 40)}'`);
    return format as ListFormat;
  }
  x.vary('Accept');
  const accept = x.header('accept');
  // Most clients' Accept names no CSV at all: no need to negotiate.
  return accept && /csv/i.test(accept) ? acceptedFormat(accept) : 'json';
}
