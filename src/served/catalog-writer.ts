import type { Caller } from '../accounts/account.ts';
import type { WriteOutcome } from '../catalog/edit/operations.ts';
import { HttpError } from '../lib/http-error.ts';
import type { Curator, WriteRequest } from './curator.ts';
import type { Sandboxes } from './sandboxes.ts';

/** Roles whose writes change the shared catalog (HawAPI's). */
const CURATORS: readonly string[] = ['MAINTAINER', 'ADMIN'];

/**
 * Where a caller's catalog write goes, for every face (REST routes, GraphQL mutations): a
 * MAINTAINER's or ADMIN's to the curator (the shared catalog); in classroom mode (`sandboxes`
 * given) any other account's to its own sandbox; otherwise refused. Both pass the same gate.
 *
 * @example
 * const writer = new CatalogWriter(curator, sandboxes);
 * const caller = writer.admit(ctx.state.account, 'POST /api/v1/actors', 'http://192.168.1.20:3000');
 * await writer.write({ caller, request: 'POST /api/v1/actors', stage: (draft) => createRecord(draft, 'actors', body) });
 */
export class CatalogWriter {
  constructor(
    private readonly curator: Curator,
    readonly sandboxes?: Sandboxes,
  ) {}

  /** The caller, if it may write: 401 without an account (saying how to register), 403 for a role that may not. */
  admit(caller: Caller | undefined, request: string, origin: string): Caller {
    if (!caller) {
      const howTo = this.sandboxes
        ? `: register (each account writes to a sandbox of its own) with  curl -s ${origin}/api/v1/auth/register -H 'Content-Type: application/json' -d '{"first_name":"Ana","last_name":"Lima","username":"ana","email":"ana@example.org","password":"a long passphrase"}'  and send the token it answers`
        : `: send a MAINTAINER or ADMIN account's token`;
      throw new HttpError(401, `${request} changes the catalog${howTo} (Authorization: Bearer <token>)`, {
        'WWW-Authenticate': 'Bearer',
      });
    }
    if (!this.sandboxes && !CURATORS.includes(caller.role))
      throw new HttpError(
        403,
        `Account '${caller.username}' is ${caller.role}: only MAINTAINER and ADMIN accounts change the catalog`,
      );
    return caller;
  }

  /** Whether `caller`'s writes and reads go to its own sandbox. */
  sandboxed(caller: Caller): boolean {
    return this.sandboxes !== undefined && !CURATORS.includes(caller.role);
  }

  /** Takes the write where the caller's writes go (see `admit` first). */
  write<T extends WriteOutcome>(request: WriteRequest<T>): Promise<T> {
    return this.sandboxed(request.caller) ? this.sandboxes!.write(request) : this.curator.write(request);
  }
}
