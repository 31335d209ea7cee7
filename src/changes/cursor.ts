// A feed cursor: where a reader of the change feed stands. Clients are told it is opaque (the
// API documents it as a string to hand back, never to parse): its shape may change with a
// version prefix, and old shapes are refused with a 400 rather than misread.

/**
 * Where a reader stands: after write `shared` of the shared log (after its first `part` entries, when `part` is not 0),
 * and after write `sandbox` of its own sandbox.
 */
export interface Cursor {
  shared: number;
  /** 0: the whole of write `shared` was read; n: only its first n entries. */
  part: number;
  /** The last sandbox write read (0 for none, and for readers without a sandbox). */
  sandbox: number;
  /** A short hash naming write `shared` (its number and time), so a cursor of another catalog is recognised. */
  tag: string;
}

/** Longest cursor text accepted: a real one is under 40 characters. */
export const MAX_CURSOR_LENGTH = 100;

const PREFIX = 'c1';
const NUMBER = /^(0|[1-9]\d{0,14})$/;

/** base64url of ASCII text, without padding (no Buffer: the same code runs in a browser). */
const toBase64Url = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const fromBase64Url = (text: string) => atob(text.replace(/-/g, '+').replace(/_/g, '/'));

/**
 * A short, stable hash of a write's number and time (32-bit FNV-1a, in base 36): enough to
 * tell this catalog's write from another's with the same number, which is all it is for.
 */
export function writeTag(seq: number, at: string): string {
  let hash = 0x811c9dc5;
  const text = `${seq} ${at}`;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

/**
 * The cursor as clients see it.
 *
 * @example
 * encodeCursor({ shared: 12, part: 0, sandbox: 0, tag: '1x9k2a' }); // 'YzEuMTIuMC4wLjF4OWsyYQ'
 */
export function encodeCursor({ shared, part, sandbox, tag }: Cursor): string {
  return toBase64Url(`${PREFIX}.${shared}.${part}.${sandbox}.${tag}`);
}

/**
 * The cursor `text` names, or why it is not one (without the parameter's name): too long, not
 * base64url, or not of this server's shape.
 *
 * @example
 * decodeCursor('-1'); // 'is not a cursor this server gave'
 */
export function decodeCursor(text: string): Cursor | string {
  if (text.length > MAX_CURSOR_LENGTH)
    return `is ${text.length} characters long; a cursor has at most ${MAX_CURSOR_LENGTH}`;
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return 'is not a cursor this server gave (cursors are base64url text)';
  let plain: string;
  try {
    plain = fromBase64Url(text);
  } catch {
    return 'is not a cursor this server gave (cursors are base64url text)';
  }
  const [prefix, shared, part, sandbox, tag, ...rest] = plain.split('.');
  if (
    prefix !== PREFIX ||
    rest.length ||
    ![shared, part, sandbox].every((n) => n !== undefined && NUMBER.test(n)) ||
    tag === undefined ||
    !/^[0-9a-z]{0,8}$/.test(tag)
  )
    return 'is not a cursor this server gave';
  return { shared: Number(shared), part: Number(part), sandbox: Number(sandbox), tag };
}
