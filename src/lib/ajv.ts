import { Ajv2020, type CodeOptions } from 'ajv/dist/2020.js';
import { FORMATS } from './formats.ts';

/** How an ajv instance is made beyond the project's rules: for generating code, and how it counts string lengths. */
export interface AjvOptions {
  /** For the build, which generates standalone validators. */
  code?: CodeOptions;
  /** False: `minLength` and `maxLength` count UTF-16 code units, not characters (no pass over the string). */
  unicode?: boolean;
}

/**
 * ajv's console output without its notice that the `unicode` option is deprecated: ajv 8
 * still honours it, and where it is off the results are the same either way (see
 * `countsCharacters` in validators.ts), so the notice would only be noise at every boot.
 */
const logger = {
  log: console.log,
  warn: (...args: unknown[]) => {
    if (!String(args[0]).startsWith('DEPRECATED: option unicode')) console.warn(...args);
  },
  error: console.error,
};

/**
 * An ajv instance for the project's schemas: draft 2020-12, every error reported with the
 * value and schema it concerns, strict about unknown keywords except the `x-family` and
 * `x-inverse` annotations.
 *
 * @example
 * const validate = createAjv().compile({ type: 'string', format: 'date' });
 * validate('2024-02-30'); // false
 */
export function createAjv({ code, unicode = true }: AjvOptions = {}): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true, unicode, logger, ...(code ? { code } : {}) });
  for (const [name, format] of Object.entries(FORMATS)) ajv.addFormat(name, format);
  ajv.addVocabulary(['x-family', 'x-inverse']);
  return ajv;
}
