/**
 * Roles in increasing order of trust; BASIC is what a self-registered account gets.
 *
 * @example
 * ROLES.includes(body.role); // true for 'DEV'
 */
export const ROLES = ['BASIC', 'DEV', 'MAINTAINER', 'ADMIN'] as const;

/** One of ROLES. @example const role: Role = 'ADMIN'; */
export type Role = (typeof ROLES)[number];

/**
 * One account as stored. `password_hash` is a self-describing scrypt string (see
 * `passwords.ts`); timestamps are ISO 8601 instants in UTC.
 *
 * @example
 * const account: Account = { uuid, username: 'ana', email: 'ana@example.org', first_name: 'Ana',
 *   last_name: 'Lima', role: 'BASIC', password_hash, created_at: now, updated_at: now };
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
 *
 * @example
 * const caller: Caller = { uuid: account.uuid, username: account.username, role: account.role };
 */
export interface Caller {
  uuid: string;
  username: string;
  role: Role;
}
