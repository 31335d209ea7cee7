import pino from 'pino';

type Destination = ReturnType<typeof pino.destination>;

/** Ends `streams` once every pending write has reached its file descriptor (1 and 2 stay open). */
async function closeAll(...streams: Destination[]): Promise<void> {
  const closed = (stream: Destination) =>
    new Promise<void>((resolve) => {
      stream.once('close', () => resolve());
      stream.end();
    });
  await Promise.all(streams.map(closed));
}

/** How much the service says: `debug` everything, `info` boot and one line per request, `warn`/`error` only problems. */
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

/**
 * The access line of one answered request, as text.
 *
 * @example
 * accessLine('GET', '/api/v1/actors', 200, 1.43); // 'GET /api/v1/actors 200 1.4ms'
 */
export function accessLine(method: string, path: string, status: number, ms: number): string {
  return `${method} ${path} ${status} ${ms.toFixed(1)}ms`;
}

/**
 * pino's asynchronous destination on `fd`, batching: written once 4 KB are waiting, or every
 * 100 ms. An access line written on its own (a thread-pool write per request under load) cost
 * about 1 µs of CPU more per request than in a batch (docs/performance.md); `flushed` lines go
 * at once.
 */
function batched(fd: 1 | 2): Destination {
  return pino.destination({ dest: fd, sync: false, minLength: 4096, periodicFlush: 100 });
}

/** `write` then `stream.flush()`: boot lines and problems are not held back with the access lines. */
function flushed(stream: Destination, write: (line: string) => void): (line: string) => void {
  return (line) => {
    write(line);
    stream.flush();
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
  if (level === 'silent') return { debug: quiet, info: quiet, warn: quiet, error: quiet, access: quiet, close: async () => {} };
  const enabled = (wanted: LogLevel) => ORDER.indexOf(wanted) >= ORDER.indexOf(level);
  if (format === 'json') {
    const destination = batched(1);
    const json = pino({ level, base: { service: 'series-catalog-api' }, timestamp: pino.stdTimeFunctions.isoTime }, destination);
    return {
      debug: flushed(destination, (line) => json.debug(line)),
      info: flushed(destination, (line) => json.info(line)),
      warn: flushed(destination, (line) => json.warn(line)),
      error: flushed(destination, (line) => json.error(line)),
      access: enabled('info') ? (method, path, status, ms) => json.info({ method, path, status, ms: Math.round(ms * 10) / 10 }, 'request') : quiet,
      close: () => closeAll(destination),
    };
  }
  const out = batched(1);
  const err = batched(2);
  const line = (stream: Destination, wanted: LogLevel) => (enabled(wanted) ? flushed(stream, (text) => void stream.write(`${text}\n`)) : quiet);
  return {
    debug: line(out, 'debug'),
    info: line(out, 'info'),
    warn: line(err, 'warn'),
    error: line(err, 'error'),
    access: enabled('info') ? (method, path, status, ms) => void out.write(`${accessLine(method, path, status, ms)}\n`) : quiet,
    close: () => closeAll(out, err),
  };
}
