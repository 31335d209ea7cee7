import pino from 'pino';

/** A pino destination in sonic-boom's `buffer` mode: it takes bytes (its types only name strings). */
type Destination = Omit<ReturnType<typeof pino.destination>, 'write'> & { write(bytes: Buffer): boolean };

/** A buffered destination on `fd` that takes bytes (see `batchLines`). */
function destination(fd: 1 | 2): Destination {
  return pino.destination({ dest: fd, sync: false, contentMode: 'buffer' }) as unknown as Destination;
}

/** Ends `streams` once every pending write has reached its file descriptor (1 and 2 stay open). */
async function closeAll(...streams: Destination[]): Promise<void> {
  const closed = (stream: Destination) =>
    new Promise<void>((resolve) => {
      stream.once('close', () => resolve());
      stream.end();
    });
  await Promise.all(streams.map(closed));
}

/**
 * How much the service says: `debug` everything, `info` boot and one line per request, `warn`/`error` only problems.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/** `text`: plain lines for a terminal; `json`: one JSON object per line for log collectors. */
export type LogFormat = 'text' | 'json';

/** Where the service writes: lines by level, and one access record per answered request. */
export interface Logger {
  debug(line: string): void;
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
  /** One answered request: `GET /api/v1/actors 200 1.4ms` as text, its fields as JSON. */
  access(method: string, path: string, status: number, ms: number): void;
  /** Writes out everything still pending; call it before the process exits. */
  close(): Promise<void>;
}

const ORDER: LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];

/** How long an answer took, with the line's end, for every time under 100 ms (in tenths). */
const SHORT_TIMES = Array.from({ length: 1000 }, (_, tenths) => `${Math.trunc(tenths / 10)}.${tenths % 10}ms\n`);

/**
 * The access line of one answered request, as text, with its newline.
 *
 * @example
 * accessLine('GET', '/api/v1/actors', 200, 1.43); // 'GET /api/v1/actors 200 1.4ms\n'
 */
export function accessLine(method: string, path: string, status: number, ms: number): string {
  // Tenths in integer arithmetic: toFixed is a call into the engine's C++ (about 50 ns a line).
  const tenths = Math.round(ms * 10);
  const time = tenths < 1000 ? SHORT_TIMES[tenths]! : `${Math.trunc(tenths / 10)}.${tenths % 10}ms\n`;
  return method + ' ' + path + ' ' + status + ' ' + time;
}

/** Lines gathered for one write; `flush` hands them to the destination. */
interface LineBatch {
  write(line: string): void;
  flush(): void;
}

/** Bytes gathered before one write to the destination. */
const BATCH_BYTES = 65_536;
/** Characters of lines kept as text before they are encoded into the batch. */
const TEXT_CHARS = 4_096;

/**
 * Gathers lines and hands them to `stream` as one write of bytes once 64 KB wait, or 100 ms
 * after the first line waiting. One write per line (a thread-pool write each) cost about 1 µs
 * more per request; sonic-boom's own `minLength` batching measures the whole pending buffer's
 * UTF-8 length on every write, which cost about as much again, and a string given to it is
 * measured, encoded for the write and encoded again once written. Lines are joined as text
 * 4 KB at a time and then encoded into the batch: 64 KB of joined lines are some 1,500 small
 * strings, which outlived every young-generation collection in between and were copied and
 * promoted (docs/performance.md).
 */
function batchLines(stream: Destination): LineBatch {
  let text = '';
  let bytes = Buffer.allocUnsafe(BATCH_BYTES);
  let used = 0;
  const send = () => {
    // A copy: the destination holds what it is given until written, and `bytes` is refilled now.
    if (used > 0) stream.write(Buffer.from(bytes.subarray(0, used)));
    used = 0;
  };
  const encode = () => {
    if (text === '') return;
    const length = Buffer.byteLength(text, 'utf8');
    if (used + length > bytes.length) send();
    if (length > bytes.length) bytes = Buffer.allocUnsafe(length);
    used += bytes.write(text, used, 'utf8');
    text = '';
  };
  // Armed by the first line after a flush: an idle server has no timer waking it up.
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    encode();
    send();
  };
  return {
    write(line) {
      timer ??= setTimeout(flush, 100).unref();
      text += line;
      if (text.length < TEXT_CHARS) return;
      encode();
      if (used >= BATCH_BYTES - TEXT_CHARS) send();
    },
    flush,
  };
}

/** `write` then flush: boot lines and problems are not held back with the access lines. */
function flushed(batch: LineBatch, write: (line: string) => void): (line: string) => void {
  return (line) => {
    write(line);
    batch.flush();
  };
}

/**
 * A logger honouring `LOG_LEVEL` and `LOG_FORMAT`. Both formats write through pino's
 * buffered destination, access lines in batches (see `batched`), so a line per request does
 * not block on the terminal or the pipe; text puts problems on stderr, JSON puts everything on
 * stdout.
 *
 * @example
 * createLogger({ level: 'warn', format: 'text' }).info('hidden'); // prints nothing
 */
export function createLogger({ level, format }: { level: LogLevel; format: LogFormat }): Logger {
  const quiet = () => {};
  if (level === 'silent')
    return { debug: quiet, info: quiet, warn: quiet, error: quiet, access: quiet, close: async () => {} };
  const enabled = (wanted: LogLevel) => ORDER.indexOf(wanted) >= ORDER.indexOf(level);
  if (format === 'json') {
    const out = destination(1);
    const batch = batchLines(out);
    const json = pino(
      { level, base: { service: 'series-catalog-api' }, timestamp: pino.stdTimeFunctions.isoTime },
      batch,
    );
    return {
      debug: flushed(batch, (line) => json.debug(line)),
      info: flushed(batch, (line) => json.info(line)),
      warn: flushed(batch, (line) => json.warn(line)),
      error: flushed(batch, (line) => json.error(line)),
      access: enabled('info')
        ? (method, path, status, ms) => json.info({ method, path, status, ms: Math.round(ms * 10) / 10 }, 'request')
        : quiet,
      close: () => {
        batch.flush();
        return closeAll(out);
      },
    };
  }
  const out = destination(1);
  const err = destination(2);
  const outLines = batchLines(out);
  const errLines = batchLines(err);
  const line = (batch: LineBatch, wanted: LogLevel) =>
    enabled(wanted) ? flushed(batch, (text) => batch.write(`${text}\n`)) : quiet;
  return {
    debug: line(outLines, 'debug'),
    info: line(outLines, 'info'),
    warn: line(errLines, 'warn'),
    error: line(errLines, 'error'),
    access: enabled('info')
      ? (method, path, status, ms) => outLines.write(accessLine(method, path, status, ms))
      : quiet,
    close: () => {
      outLines.flush();
      errLines.flush();
      return closeAll(out, err);
    },
  };
}
