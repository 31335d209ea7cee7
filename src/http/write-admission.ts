import type { Caller } from '../accounts/account.ts';
import { HttpError } from '../lib/http-error.ts';
import { curates } from '../lib/roles.ts';

/** The request body of a registration, as the 401 of a classroom write shows it. */
const REGISTER_BODY =
  '{"first_name":"Ana","last_name":"Lima","username":"ana","email":"ana@example.org","password":"a long passphrase"}';

/**
 * The caller, when it may write: no account is a 401 (in classroom mode saying how to
 * register), and outside classroom mode any role but MAINTAINER and ADMIN a 403.
 *
 * @example
 * admitted(undefined, 'POST /api/v1/actors', 'http://localhost:3000', false); // throws HttpError(401)
 */
export function admitted(caller: Caller | undefined, request: string, origin: string, classroom: boolean): Caller {
  if (!caller) {
    const howTo = classroom
      ? `: register (each account writes to a sandbox of its own) with  curl -s ${origin}/api/v1/auth/register -H ` +
        `'Content-Type: application/json' -d '${REGISTER_BODY}'  and send the token it answers`
      : ": send a MAINTAINER or ADMIN account's token";
    throw new HttpError(401, `${request} changes the catalog${howTo} (Authorization: Bearer <token>)`, {
      'WWW-Authenticate': 'Bearer',
    });
  }
  if (!classroom && !curates(caller.role))
    throw new HttpError(
      403,
      `Account '${caller.username}' is ${caller.role}: only MAINTAINER and ADMIN accounts change the catalog`,
    );
  return caller;
}
