import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import { canonicalLanguage, isLocalDateTime } from './formats.ts';

// ajv-formats is CommonJS with a default export that NodeNext types as the module object.
const addFormats = formatsPlugin as unknown as typeof formatsPlugin.default;

/**
 * An ajv instance for the project's schemas: draft 2020-12, every error reported, strict
 * about unknown keywords except the `x-family` and `x-inverse` annotations.
 *
 * @example
 * const validate = createAjv().compile({ type: 'string', format: 'date' });
 * validate('2024-02-30'); // false
 */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true });
  addFormats(ajv, ['date', 'uri', 'email']);
  ajv.addFormat('local-date-time', isLocalDateTime);
  ajv.addFormat('language-tag', (tag: string) => canonicalLanguage(tag) === tag);
  ajv.addVocabulary(['x-family', 'x-inverse']);
  return ajv;
}
