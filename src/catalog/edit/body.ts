import { HttpError } from '../../lib/http-error.ts';
import type { Family } from '../families.ts';
import { withoutNulls } from '../schema-check.ts';
import { depthOf } from './merge-patch.ts';
import type { Row } from './draft.ts';

/**
 * Fields the server keeps: a body may repeat them as they are (clients send back what they read), never change them.
 */
export const SERVER_FIELDS = ['uuid', 'href', 'created_at', 'updated_at'] as const;

/** No record nests deeper than this (an actor's socials: list, object, text); deeper bodies are refused unread. */
const MAX_DEPTH = 4;

/**
 * A write's JSON body as an object: anything else, or anything nested deeper than a record
 * can be, is a 400 naming what was sent.
 */
export function bodyObject(body: unknown, what: string): Row {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(
      400,
      `Request body must be a JSON object (${what}), got ` +
        `${Array.isArray(body) ? 'an array' : body === null ? 'null' : typeof body}`,
    );
  }
  if (depthOf(body, MAX_DEPTH) > MAX_DEPTH)
    throw new HttpError(400, `Request body nests deeper than ${MAX_DEPTH} levels; no ${what} does`);
  return body as Row;
}

/** A body's parts: the record's own fields, the translated ones, and the language they are in. */
export interface SplitBody {
  own: Row;
  translated: Row;
  language: unknown;
  /** The server's fields the body carries, with their values. */
  server: Row;
}

/** Splits a record body (as a GET answers the record) into what goes where. */
export function splitBody(family: Family, body: Row): SplitBody {
  const translatedFields = new Set(family.translation?.fields ?? []);
  const split: SplitBody = { own: {}, translated: {}, language: undefined, server: {} };
  for (const [key, value] of Object.entries(body)) {
    if (
      (SERVER_FIELDS as readonly string[]).includes(key) ||
      (family.translation && key === 'languages' && family.name !== 'overview')
    )
      split.server = { ...split.server, [key]: value };
    else if (family.translation && key === 'language') split.language = value;
    else if (translatedFields.has(key))
      split.translated = Object.fromEntries([...Object.entries(split.translated), [key, value]]);
    else split.own = Object.fromEntries([...Object.entries(split.own), [key, value]]);
  }
  return split;
}

/** A value as a message shows it. */
export const shown = (value: unknown): string => {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 60 ? `${json.slice(0, 57)}...` : json;
};

/** A created record's fields, nulls dropped (absent and null mean the same in the data). */
export const withoutNullFields = (row: Row): Row => withoutNulls(row) as Row;
