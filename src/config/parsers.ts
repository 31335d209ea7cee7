import { resolve } from 'node:path';
import { canonicalLanguage } from '../lib/formats.ts';

// How each environment variable's text becomes a setting: a parser returns the value, or
// what the variable accepts (the refusal names it).

/** A parser turns a raw value into a setting or returns what the variable accepts. */
export type Parse<T> = (raw: string) => { value: T } | { accepts: string };

export interface Variable<T> {
  /** The value used when the variable is unset or empty; '' means "no value". */
  default: string;
  description: string;
  parse: Parse<T>;
  /** Refusals say how long the value was instead of repeating it. */
  secret?: boolean;
}

export function integer(min: number, max: number): Parse<number> {
  return (raw) => {
    const value = Number(raw);
    return /^\d+$/.test(raw) && value >= min && value <= max
      ? { value }
      : { accepts: `an integer from ${min} to ${max}` };
  };
}

/** One of `choices`, in any case (`LOG_LEVEL=ERROR` is `error`). */
export function oneOf<T extends string>(...choices: T[]): Parse<T> {
  return (raw) => {
    const choice = choices.find((candidate) => candidate === raw.toLowerCase());
    return choice ? { value: choice } : { accepts: `one of ${choices.join(', ')}` };
  };
}

/** A switch, as people write them: true/false, on/off, 1/0, yes/no, in any case. */
export const flag: Parse<boolean> = (raw) => {
  const lower = raw.toLowerCase();
  if (['true', 'on', '1', 'yes'].includes(lower)) return { value: true };
  if (['false', 'off', '0', 'no'].includes(lower)) return { value: false };
  return { accepts: 'true or false (also on/off, 1/0, yes/no)' };
};

/** Requests per window, or `unlimited` (Infinity). */
export const budget: Parse<number> = (raw) => {
  if (raw === 'unlimited') return { value: Infinity };
  const value = Number(raw);
  return /^\d+$/.test(raw) && value >= 1 && value <= 1e9
    ? { value }
    : { accepts: 'an integer from 1 to 1000000000, or unlimited' };
};

/** Proxies in front of the service: a switch (off: none, on: one) or a count. */
export const proxyHops: Parse<number> = (raw) => {
  const asSwitch = flag(raw);
  if ('value' in asSwitch) return { value: asSwitch.value ? 1 : 0 };
  return /^\d+$/.test(raw) && Number(raw) <= 10
    ? { value: Number(raw) }
    : { accepts: 'a switch (true/false, on/off, yes/no) or the number of proxies in front (0 to 10)' };
};

/** An absolute http(s) URL without a trailing slash, or unset. */
export const publicUrl: Parse<string | undefined> = (raw) => {
  if (raw === '') return { value: undefined };
  const trimmed = raw.replace(/\/+$/, '');
  return /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(trimmed)
    ? { value: trimmed }
    : { accepts: 'an absolute http:// or https:// URL such as https://api.example.org' };
};

export const redisUrl: Parse<string> = (raw) =>
  raw === '' || /^rediss?:\/\/\S+$/.test(raw) ? { value: raw } : { accepts: 'a redis:// or rediss:// URL' };
export function powerOfTwo(minExponent: number, maxExponent: number): Parse<number> {
  return (raw) => {
    const value = Number(raw);
    const exponent = Math.log2(value);
    return /^\d+$/.test(raw) && Number.isInteger(exponent) && exponent >= minExponent && exponent <= maxExponent
      ? { value }
      : { accepts: `a power of two from ${2 ** minExponent} to ${2 ** maxExponent}` };
  };
}

/** Unset stays undefined; a set value needs `minBytes` bytes of UTF-8. */
export function optionalSecret(minBytes: number): Parse<string | undefined> {
  return (raw) =>
    raw === ''
      ? { value: undefined }
      : Buffer.byteLength(raw) >= minBytes
        ? { value: raw }
        : { accepts: `at least ${minBytes} bytes` };
}

export const optionalText: Parse<string | undefined> = (raw) => ({ value: raw === '' ? undefined : raw });

export const text: Parse<string> = (raw) => (raw.trim() ? { value: raw } : { accepts: 'a non-empty value' });

/** A file or folder, made absolute against the working directory so every message names it whole. */
export const path: Parse<string> = (raw) => (raw.trim() ? { value: resolve(raw) } : { accepts: 'a path' });

/** A path, or nothing (the empty default: a place derived from another setting). */
export const optionalPath: Parse<string | undefined> = (raw) => ({ value: raw.trim() ? resolve(raw) : undefined });

export const languageTag: Parse<string> = (raw) => {
  const canonical = canonicalLanguage(raw);
  return canonical ? { value: canonical } : { accepts: 'a BCP 47 language tag such as en-US' };
};

/** The scrypt cost below which passwords are too weak for real use (OWASP's minimum, 2^17). */
