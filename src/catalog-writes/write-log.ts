import { parseJson } from '../lib/json.ts';
import { compileValidator } from '../lib/validators.ts';
import type { OverlayWrite } from './store.ts';

/** The overlay as read from its file: the writes kept, and the last one export folded into data/. */
export interface OverlayContent {
  writes: OverlayWrite[];
  /** The last write `catalog export` folded into data/ (0: none): numbering goes on after it. */
  exported: number;
  /**
   * The number of the last write ever taken, when a drop (a sandbox reset) forgot it and writes
   * before it are kept: numbering goes on after it, never giving a number twice.
   */
  last?: number;
}

/** What a file held, and whether a write may be appended to it as it is. */
export interface ReadOverlay extends OverlayContent {
  /**
   * `log`: one write a line, appendable; `whole`: the former format (one JSON document), to be
   * rewritten as a log by the next change.
   */
  format: 'log' | 'whole';
  /** Bytes of complete lines: where the next write goes. */
  cleanBytes: number;
  /** A last line that an interrupted append left incomplete, dropped: its number and size. */
  torn?: { line: number; bytes: number };
}

/** What the first line of the log says: that this file is a log, and where numbering goes on. */
const LOG_FORMAT = 'catalog-overlay, one write a line';

const writeSchema = {
  type: 'object',
  properties: {
    seq: { type: 'integer', minimum: 1 },
    at: { type: 'string' },
    account: {
      type: 'object',
      properties: { uuid: { type: 'string' }, username: { type: 'string' } },
      required: ['uuid', 'username'],
    },
    request: { type: 'string' },
    changes: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          family: { type: 'string' },
          uuid: { type: 'string' },
          language: { type: 'string' },
          before: { type: ['string', 'null'] },
          after: { type: ['object', 'null'] },
        },
        required: ['family', 'uuid', 'before', 'after'],
      },
    },
    mark: {
      type: 'object',
      properties: { data: { type: 'string' }, reset: { enum: ['reset', 'expired'] } },
      minProperties: 1,
      maxProperties: 1,
    },
  },
  required: ['seq', 'at', 'account', 'request', 'changes'],
} as const;

const validateWrite = compileValidator<OverlayWrite>(writeSchema);
const validateHeader = compileValidator<{ format: string; exported: number; last?: number }>({
  type: 'object',
  properties: {
    format: { const: LOG_FORMAT },
    exported: { type: 'integer', minimum: 0 },
    last: { type: 'integer', minimum: 1 },
  },
  required: ['format', 'exported'],
});
const validateWhole = compileValidator<{ writes: OverlayWrite[]; exported?: number }>({
  type: 'object',
  properties: { writes: { type: 'array', items: writeSchema }, exported: { type: 'integer', minimum: 1 } },
  required: ['writes'],
});

const firstError = (validate: { errors?: { instancePath: string; message?: string }[] | null }) => {
  const first = validate.errors![0]!;
  return `${first.instancePath || 'top level'}: ${first.message}`;
};

/** One write as the log keeps it: a line of JSON. */
export function logLine(write: OverlayWrite): string {
  return `${JSON.stringify(write)}\n`;
}

/**
 * The whole log of `content`: its header line (with `last` only when no kept write or export
 * says that number already), then one line a write.
 *
 * @example
 * logText({ writes: [], exported: 6 }); // '{"format":"catalog-overlay, one write a line","exported":6}\n'
 */
export function logText({ writes, exported, last = 0 }: OverlayContent): string {
  const header =
    last > Math.max(exported, writes.at(-1)?.seq ?? 0)
      ? { format: LOG_FORMAT, exported, last }
      : { format: LOG_FORMAT, exported };
  return `${JSON.stringify(header)}\n${writes.map(logLine).join('')}`;
}

function isLogHeader(line: string): boolean {
  try {
    return (JSON.parse(line) as { format?: unknown } | null)?.format === LOG_FORMAT;
  } catch {
    return false;
  }
}

/** The former format: one JSON document `{ writes, exported? }`, written whole. */
function readWhole(text: string): ReadOverlay | string {
  const parsed = parseJson(text);
  if ('error' in parsed) return `line ${parsed.error.line}, column ${parsed.error.column}: ${parsed.error.message}`;
  if (!validateWhole(parsed.value))
    return `not a catalog overlay (${firstError(validateWhole)}); move it away to start with no changes`;
  const { writes, exported = 0 } = parsed.value;
  return { writes, exported, format: 'whole', cleanBytes: Buffer.byteLength(text) };
}

/** Each line after the header is one write, numbered after the one before; a torn last line is dropped. */
function readLog(text: string): ReadOverlay | string {
  const lines = text.split('\n');
  // The text after the last newline: empty when every append completed.
  const tail = lines.pop()!;
  const header = JSON.parse(lines[0]!) as unknown;
  if (!validateHeader(header))
    return (
      `line 1 is not the overlay's header (${firstError(validateHeader)}); move the file away to start with no ` +
      `changes`
    );
  const numbered = { exported: header.exported, ...(header.last ? { last: header.last } : {}) };
  const writes: OverlayWrite[] = [];
  let cleanBytes = Buffer.byteLength(lines[0]!) + 1;
  let last = header.exported;
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index]!;
    let write: unknown;
    try {
      write = JSON.parse(line);
    } catch (error) {
      // The last line holding zeros a crash left (the file grew but its blocks were never
      // written): an append never acknowledged. Text that is not JSON is an edit, not a crash.
      if (index === lines.length - 1 && tail === '' && line.includes('\0'))
        return {
          writes,
          ...numbered,
          format: 'log',
          cleanBytes,
          torn: { line: index + 1, bytes: Buffer.byteLength(line) + 1 },
        };
      return (
        `line ${index + 1} is not JSON (${(error as Error).message}); repair or remove that line, or move the file ` +
        `away to start with no changes`
      );
    }
    if (!validateWrite(write))
      return (
        `line ${index + 1} is not a catalog write (${firstError(validateWrite)}); repair or remove that line, or ` +
        `move the file away to start with no changes`
      );
    if (write.seq <= last)
      return (
        `line ${index + 1} is write ${write.seq}, not after ${last}; repair or remove that line, or move the file ` +
        `away to start with no changes`
      );
    last = write.seq;
    writes.push(write);
    cleanBytes += Buffer.byteLength(line) + 1;
  }
  const torn = tail === '' ? undefined : { line: lines.length + 1, bytes: Buffer.byteLength(tail) };
  return { writes, ...numbered, format: 'log', cleanBytes, ...(torn ? { torn } : {}) };
}

/**
 * The overlay `text` holds, or what is wrong with it (without the file's name). A log (a header
 * line, then one write a line) or the former whole JSON document are both read. In a log, a
 * last line without its newline, or one holding the zero bytes a crash leaves, is an append
 * that never completed, so never acknowledged: it is dropped and said in `torn`. Any other line
 * that is not a write (a hand edit), or not numbered after the one before, makes the file
 * unusable and is named by its number.
 *
 * @example
 * readOverlay('{"format":"catalog-overlay, one write a line","exported":0}\n{"seq":1,…}\n{"seq":2,"at');
 * // 1 write, torn: line 3
 */
export function readOverlay(text: string): ReadOverlay | string {
  const newline = text.indexOf('\n');
  return newline > 0 && isLogHeader(text.slice(0, newline)) ? readLog(text) : readWhole(text);
}
