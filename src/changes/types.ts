import type { FamilyName } from '../catalog/families.ts';

/** What happened: a row created, changed or deleted, new data/ loaded, or a classroom sandbox reset. */
export type ChangeAction = 'created' | 'changed' | 'deleted' | 'reloaded' | 'reset';

/**
 * One change as the feed lists it. A record change names its family, uuid and href; a
 * translation's adds its language, a social's its network (href: where each is read). A
 * delete is a tombstone (`deleted: true`). `reloaded` names the data files' version, after
 * which a reader reads again what it keeps; `reset` is a sandbox emptied. `sandbox`: a change
 * of the reader's own classroom sandbox, which no one else is shown.
 */
export interface Change {
  at: string;
  action: ChangeAction;
  family?: FamilyName;
  uuid?: string;
  href?: string;
  language?: string;
  social?: string;
  deleted?: true;
  /** `reloaded`: the version of the data files now served. */
  data?: string;
  sandbox?: true;
}

/** A change with the cursor a reader resumes after it. */
export interface ListedChange extends Change {
  cursor: string;
  /** `include=records`: the record (translation, social) as its href answers now; absent for a tombstone. */
  record?: unknown;
}

/** One write of a log as the feed holds it: its number, the tag cursors carry, and its changes. */
export interface FeedWrite {
  seq: number;
  /** When it was taken: a reader with a sandbox is shown its own writes and the shared ones in this order. */
  at: string;
  tag: string;
  changes: Change[];
}
