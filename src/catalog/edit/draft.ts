import { createHash } from 'node:crypto';
import type { Catalog } from '../catalog.ts';
import { canonicalRow } from '../canonical.ts';
import { family, type FamilyName } from '../families.ts';
import { pictureIndexes } from '../pictures/drawn-pictures.ts';
import { drawnPicture, pictureReferences } from '../pictures/references.ts';

/** A row of a data file: a record, or a translation row (parent uuid, language, fields). */
export type Row = Record<string, unknown>;

/**
 * One row as a write left it, the unit the overlay keeps and `catalog export` folds into
 * data/: a record (no `language`) or a translation row, `after` null when removed. `before`
 * fingerprints the row it replaced (null: there was none), so a row edited in data/ since is
 * recognised at boot rather than overwritten.
 */
export interface RowChange {
  family: FamilyName;
  uuid: string;
  language?: string;
  before: string | null;
  after: Row | null;
}

/** JSON with every object's keys sorted: the same row in any key order gives the same text. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${stableJson((value as Row)[key])}`).join(',')}}`;
}

/**
 * A short fingerprint of a row (or null for none), independent of key order.
 *
 * @example
 * fingerprint({ b: 1, a: 2 }) === fingerprint({ a: 2, b: 1 }); // true
 */
export function fingerprint(row: Row | null | undefined): string | null {
  return row ? createHash('sha256').update(stableJson(row)).digest('base64url').slice(0, 16) : null;
}

const recordKey = (name: FamilyName, uuid: string) => `${name} ${uuid}`;
const rowKey = (name: FamilyName, uuid: string, language: string) => `${name} ${uuid} ${language}`;

/**
 * Changes staged over a catalog, read back as if made: the records and translation rows a
 * write sets or removes, each remembered with the row it replaces. Nothing is served until
 * `applyChanges` builds a catalog from `changes()`; a write that fails leaves only a dropped
 * draft behind.
 *
 * @example
 * const draft = new Draft(catalog);
 * draft.setRecord('actors', uuid, { ...draft.record('actors', uuid), nationality: 'Chilean' });
 * draft.changes(); // [{ family: 'actors', uuid, before: '…', after: { … } }]
 */
export class Draft {
  readonly #records = new Map<string, { name: FamilyName; uuid: string; row: Row | null; before: string | null }>();
  readonly #rows = new Map<
    string,
    { name: FamilyName; uuid: string; language: string; row: Row | null; before: string | null }
  >();

  constructor(readonly catalog: Catalog) {}

  /** The catalog's languages as the draft leaves them (the overview lists them). */
  get languages(): readonly string[] {
    const overview = this.catalog.store('overview');
    const staged = this.#records.get(recordKey('overview', overview.records[0]!.uuid));
    return (staged?.row?.languages as string[] | undefined) ?? this.catalog.languages;
  }

  /** The record as staged or served; undefined when there is none. */
  record(name: FamilyName, uuid: string): Row | undefined {
    const staged = this.#records.get(recordKey(name, uuid));
    if (staged) return staged.row ?? undefined;
    const store = this.catalog.store(name);
    const position = store.position(uuid);
    return position === undefined ? undefined : store.records[position];
  }

  /**
   * Stages `row` (null: removed) in the canonical key order of its data file, as an export writes it and a boot serves
   * it.
   */
  setRecord(name: FamilyName, uuid: string, row: Row | null): void {
    const key = recordKey(name, uuid);
    const before = this.#records.get(key)?.before ?? fingerprint(this.#baseRecord(name, uuid));
    this.#records.set(key, { name, uuid, row: row && canonicalRow(family(name).file, row), before });
  }

  /** The translation row of `uuid` in `language` as staged or served (the file's form). */
  translation(name: FamilyName, uuid: string, language: string): Row | undefined {
    const staged = this.#rows.get(rowKey(name, uuid, language));
    if (staged) return staged.row ?? undefined;
    return this.#baseRow(name, uuid, language);
  }

  /** Stages a translation row (null: removed), in canonical key order as `setRecord`. */
  setTranslation(name: FamilyName, uuid: string, language: string, row: Row | null): void {
    const key = rowKey(name, uuid, language);
    const before = this.#rows.get(key)?.before ?? fingerprint(this.#baseRow(name, uuid, language));
    const canonical = row && canonicalRow(family(name).translation!.file, row);
    this.#rows.set(key, { name, uuid, language, row: canonical, before });
  }

  /** The languages `uuid` has a translation row in, in the catalog's order. */
  languagesOf(name: FamilyName, uuid: string): string[] {
    return this.languages.filter((language) => this.translation(name, uuid, language) !== undefined);
  }

  /** Uuids of the records of `name` whose relation `field` holds `href`, as staged. */
  linking(name: FamilyName, field: string, href: string): string[] {
    const store = this.catalog.store(name);
    const found = new Set<string>();
    for (const position of store.index(field, this.catalog.defaultLanguage).get(href))
      found.add(store.records[position]!.uuid);
    for (const { name: staged, uuid, row } of this.#records.values()) {
      if (staged !== name) continue;
      const value = row?.[field];
      if (value === href || (Array.isArray(value) && value.includes(href))) found.add(uuid);
      else found.delete(uuid);
    }
    return [...found];
  }

  /**
   * The records, as staged, whose `thumbnail` or `images` show a picture drawn for record
   * `uuid` of `name` (`drawnPicture`): what deleting that record would leave without a picture.
   */
  showingDrawnPictures(name: FamilyName, uuid: string): { family: FamilyName; uuid: string }[] {
    const candidates = new Map<string, { family: FamilyName; uuid: string }>();
    for (const { store, index } of pictureIndexes(this.catalog)) {
      const family = store.family.name as FamilyName;
      for (const position of index.prefix(`/images/${name}/${uuid}`)) {
        const candidate = store.records[position]!.uuid;
        candidates.set(recordKey(family, candidate), { family, uuid: candidate });
      }
    }
    for (const staged of this.#records.values())
      candidates.set(recordKey(staged.name, staged.uuid), { family: staged.name, uuid: staged.uuid });
    const shows = (row: Row | undefined) =>
      row !== undefined &&
      pictureReferences(row).some(({ path }) => {
        const drawn = drawnPicture(path);
        return drawn?.family === name && drawn.uuid === uuid;
      });
    return [...candidates.values()].filter((candidate) => shows(this.record(candidate.family, candidate.uuid)));
  }

  /** What is staged now, to go back to with `restore` (a write that turns out not to apply). */
  mark(): () => void {
    const records = new Map(this.#records);
    const rows = new Map(this.#rows);
    return () => {
      this.#records.clear();
      this.#rows.clear();
      for (const [key, value] of records) this.#records.set(key, value);
      for (const [key, value] of rows) this.#rows.set(key, value);
    };
  }

  /** Every record and row staged, as changes (a row set back to what is served drops out). */
  changes(): RowChange[] {
    const changes: RowChange[] = [];
    for (const { name, uuid, row, before } of this.#records.values()) {
      if (fingerprint(row) !== before) changes.push({ family: name, uuid, before, after: row });
    }
    for (const { name, uuid, language, row, before } of this.#rows.values()) {
      if (fingerprint(row) !== before) changes.push({ family: name, uuid, language, before, after: row });
    }
    return changes;
  }

  #baseRecord(name: FamilyName, uuid: string): Row | undefined {
    const store = this.catalog.store(name);
    const position = store.position(uuid);
    return position === undefined ? undefined : store.records[position];
  }

  #baseRow(name: FamilyName, uuid: string, language: string): Row | undefined {
    const store = this.catalog.store(name);
    const position = store.position(uuid);
    const fields = position === undefined ? undefined : store.ownTranslation(position, language);
    return fields && { [family(name).translation!.parentKey]: uuid, language, ...fields };
  }
}
