import type { AnySchema, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { createAjv } from './ajv.ts';

const instances = new Map<boolean, Ajv2020>();
const compiled: AnySchema[] = [];

/**
 * Whether judging `schema` needs the number of characters of a string: for a `maxLength`, or
 * a `minLength` above 1. `minLength: 1` only asks whether a string is empty, which its
 * `length` in code units says as well, without a pass over every character of every
 * description (a loop hot enough at boot to be optimized, which costs megabytes).
 *
 * @example
 * countsCharacters({ type: 'string', minLength: 1 }); // false
 * countsCharacters({ type: 'string', maxLength: 50 }); // true
 */
export function countsCharacters(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const { minLength, maxLength } = schema as { minLength?: unknown; maxLength?: unknown };
  if (maxLength !== undefined || (typeof minLength === 'number' && minLength > 1)) return true;
  return Object.values(schema).some(countsCharacters);
}

/**
 * A validator of `schema`, compiled by ajv. Call it while a module loads, never later: the
 * build (scripts/build.mjs) loads every module of src/, takes the schemas compiled meanwhile
 * (`compiledSchemas`) and bundles ajv's standalone code for them in place of this module,
 * so the compiled server compiles no schema at boot.
 *
 * @example
 * const isDate = compileValidator<string>({ type: 'string', format: 'date' });
 * isDate('2024-02-30'); // false; isDate.errors says which rule failed
 */
export function compileValidator<T = unknown>(schema: AnySchema): ValidateFunction<T> {
  const unicode = countsCharacters(schema);
  let ajv = instances.get(unicode);
  if (!ajv) instances.set(unicode, (ajv = createAjv({ unicode })));
  compiled.push(schema);
  return ajv.compile<T>(schema);
}

/** Every schema `compileValidator` was given so far, in order. */
export function compiledSchemas(): readonly AnySchema[] {
  return compiled;
}
