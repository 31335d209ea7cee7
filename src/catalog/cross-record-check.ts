import type { FamilyName } from './families.ts';
import { checkPictureNames, type PictureLookup } from './pictures/picture-names.ts';
import { checkReferences, type CheckedFamily } from './reference-check.ts';
import type { Problem } from './types.ts';

/**
 * The rules across records, applied by the load (the boot and `npm run check-data`) and by
 * every write's gate alike, so that no rule is one side's own and whatever a write may make
 * exports into data that loads: references (links, translation rows, languages) and picture
 * paths. Consistency (two-sided links, a season's numbering) is the other shared check; the
 * gate holds a write only to what it makes worse.
 *
 * @example
 * const problems = checkAcrossRecords(checked, { languages, defaultLanguage: 'en-US', pictures });
 */
export function checkAcrossRecords(
  checked: ReadonlyMap<FamilyName, CheckedFamily>,
  options: { languages: readonly string[] | undefined; defaultLanguage: string; pictures: PictureLookup },
): Problem[] {
  return [
    ...checkReferences(checked, options.languages, options.defaultLanguage),
    ...checkPictureNames(checked, options.pictures),
  ];
}
