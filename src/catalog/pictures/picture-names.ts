import type { FamilyName } from '../families.ts';
import type { CheckedFamily } from '../reference-check.ts';
import type { Problem } from '../types.ts';
import { LOCAL_PICTURE } from '../../lib/formats.ts';
import { drawnPicture, generatedPicturePath, MAX_VARIANT, pictureReferences } from './references.ts';

/** What the rule on picture paths asks of a catalog: its picture files and its records. */
export interface PictureLookup {
  /** Whether the data directory's `images/` holds a file at `path` (`/images/…`), refused or not. */
  hasFile(path: string): boolean;
  hasRecord(family: FamilyName, uuid: string): boolean;
  /** Whether the write being checked deletes that record (a write's check only). */
  deletes?(family: FamilyName, uuid: string): boolean;
  /** Whether the write being checked creates that record, whose uuid a refusal would not keep. */
  creates?(family: FamilyName, uuid: string): boolean;
}

const FORMS =
  `a file under images/ in the data directory, or a picture drawn for a record of the catalog (/images/<family>/` +
  `<uuid>.svg, or …-<n>.svg with n from 1 to ${MAX_VARIANT})`;

/**
 * Why a record of `family` (uuid `uuid`, when it has one) may not name the local picture
 * `path`, or undefined when it may. A path names either a file under `images/` of the data
 * directory, or a picture the server draws for a record of the catalog, its own or any other
 * (`/images/<family>/<uuid>.svg`, `…-<n>.svg`): a curator copying a record copies its pictures.
 * The one rule of `check-data` (and so the boot) and of every write.
 *
 * @example
 * pictureProblem('/images/actors/nobody.svg', 'actors', 'a1…', lookup);
 * // "'/images/actors/nobody.svg' names the picture drawn for actors record 'nobody', which the catalog does not have;
 * // …"
 */
export function pictureProblem(
  path: string,
  family: FamilyName,
  uuid: string | undefined,
  lookup: PictureLookup,
): string | undefined {
  // A malformed path is the schema check's to name (format picture-url).
  if (!LOCAL_PICTURE.test(path) || lookup.hasFile(path)) return undefined;
  const drawn = drawnPicture(path);
  if (drawn && lookup.hasRecord(drawn.family, drawn.uuid)) return undefined;
  const record = drawn && `${drawn.family} record '${drawn.uuid}'`;
  if (drawn && lookup.deletes?.(drawn.family, drawn.uuid))
    return (
      `'${path}' is the picture drawn for ${record}, which the write deletes: give this record another picture ` +
      `first`
    );
  const own =
    uuid === undefined || lookup.creates?.(family, uuid)
      ? ''
      : `, such as this record's own '${generatedPicturePath(family, uuid, 0)}'`;
  const what = drawn
    ? `names the picture drawn for ${record}, which the catalog does not have`
    : 'is not a file under images/ in the data directory';
  return `'${path}' ${what}; a picture path names ${FORMS}${own}`;
}

/**
 * The records of `checked` that name a local picture they may not (`pictureProblem`), one
 * problem per reference, placed at the field that names it.
 *
 * @example
 * const problems = checkPictureNames(checked, { hasFile: (path) => files.has(path), hasRecord });
 */
export function checkPictureNames(checked: ReadonlyMap<FamilyName, CheckedFamily>, lookup: PictureLookup): Problem[] {
  const problems: Problem[] = [];
  for (const { family, records } of checked.values()) {
    for (const { index, record } of records) {
      const uuid = typeof record.uuid === 'string' ? record.uuid : undefined;
      for (const { path, at } of pictureReferences(record)) {
        const message = pictureProblem(path, family.name, uuid, lookup);
        if (message) problems.push({ file: family.file, record: index, ...(uuid ? { uuid } : {}), path: at, message });
      }
    }
  }
  return problems;
}
