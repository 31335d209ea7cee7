import type { Role } from '../lib/roles.ts';

/**
 * One account as stored. `password_hash` is a self-describing scrypt string (see
 * `passwords.ts`); timestamps are ISO 8601 instants in UTC.
 */
export interface Account {
  uuid: string;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  role: Role;
  password_hash: string;
  created_at: string;
  updated_at: string;
}

/**
 * Who made a request, as the bearer middleware puts it on `ctx.state.account`: the account's
 * uuid and its username and role as stored now (not as the token remembers them).
 */
export interface Caller {
  uuid: string;
  username: string;
  role: Role;
}
