/** A record as loaded: JSON fields with nulls already removed. */
export type CatalogRecord = { uuid: string; href: string } & Record<string, unknown>;

/** The translated fields of one record in one language (no parent uuid, no language). */
export type Translation = Record<string, unknown>;

/** One problem found in a data directory, located as precisely as the check allows. */
export interface Problem {
  /** Path relative to the data directory, e.g. `translations/episodes_translations.json`. */
  file: string;
  line?: number;
  column?: number;
  /** 0-based index of the record (or translation row) in its file. */
  record?: number;
  uuid?: string;
  /** JSON pointer inside the record, e.g. `/socials/0/url`. */
  path?: string;
  message: string;
  /**
   * `error` (the default) refuses the catalog; `warning` is an inconsistency across files
   * that the server can live with (`check-data --strict` refuses it too); `note` says what
   * could not be checked and why.
   */
  severity?: 'error' | 'warning' | 'note';
  /**
   * `conflict`: the record is fine on its own but disagrees with others (a link to a record
   * that does not exist, a missing default-language row); a write answers it with 409.
   */
  kind?: 'conflict';
}
