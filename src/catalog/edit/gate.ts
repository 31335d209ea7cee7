import { HttpError } from '../../lib/http-error.ts';
import { FAMILIES } from '../families.ts';
import { unlistedLanguage } from '../reference-check.ts';
import type { Problem } from '../types.ts';
import { checkEdit } from './check-edit.ts';
import type { Draft } from './draft.ts';
import { problemsMessage } from './messages.ts';
import type { WriteOutcome } from './operations.ts';

/** The language the answer is in must be one the catalog serves; a row in it is checked, a bare `language` is not. */
function answerLanguage(draft: Draft, outcome: WriteOutcome): Problem[] {
  const { language, family, uuid } = outcome;
  if (language === undefined || draft.languages.includes(language)) return [];
  return [
    {
      file: FAMILIES.get(family)!.translation!.file,
      uuid,
      path: '/language',
      message: unlistedLanguage(language, draft.languages),
    },
  ];
}

/**
 * The one gate every write passes between being staged and being kept: the catalog the draft
 * would make is checked with the checks of the boot and `npm run check-data --strict`, on what
 * the write touches. Any problem refuses it, all named at once: 400 when the request's own
 * rows are wrong, 409 when it disagrees with the rest of the catalog. Nothing is kept before.
 *
 * @example
 * const outcome = stage(draft);
 * passGate(draft, outcome); // throws HttpError(400 | 409)
 */
export function passGate(draft: Draft, outcome: WriteOutcome): void {
  const { invalid, conflicts } = checkEdit(draft, outcome.changes);
  invalid.push(...answerLanguage(draft, outcome));
  const subject = { family: outcome.family, uuid: outcome.uuid };
  const requested = new Set(invalid);
  if (invalid.length)
    throw new HttpError(400, problemsMessage([...invalid, ...conflicts, ...outcome.conflicts], subject, requested));
  if (conflicts.length || outcome.conflicts.length)
    throw new HttpError(409, problemsMessage([...outcome.conflicts, ...conflicts], subject, requested));
}
