import type { Config } from './env.ts';

/** Where the service writes its lines: `info` for boot and access lines, `warn` for problems. */
export interface Logger {
  info(line: string): void;
  warn(line: string): void;
}

/**
 * A logger honouring `LOG_LEVEL`.
 *
 * @example
 * createLogger('warn').info('hidden'); // prints nothing
 */
export function createLogger(level: Config['LOG_LEVEL']): Logger {
  const quiet = () => {};
  return {
    info: level === 'info' ? (line) => console.log(line) : quiet,
    warn: level === 'silent' ? quiet : (line) => console.error(line),
  };
}
