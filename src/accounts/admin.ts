import { ROLES, type Account, type Role } from './account.ts';
import type { AccountStore } from './store.ts';

/**
 * Deletes the account named `username` (case-insensitively), without a password: for the
 * operator's command line. Resolves with the deleted account, or undefined if there was none.
 *
 * @example
 * await deleteByUsername(store, 'ana'); // { uuid, username: 'ana', ... }
 */
export async function deleteByUsername(store: AccountStore, username: string): Promise<Account | undefined> {
  const account = await store.find({ username });
  return account && (await store.delete(account.uuid)) ? account : undefined;
}

/**
 * Gives the account named `username` (case-insensitively) the role `role`, without a
 * password: for the operator's command line. Resolves with the changed account, or
 * undefined if there was none; rejects a role that is not one of ROLES.
 *
 * @example
 * await changeRole(store, 'ana', 'DEV'); // { uuid, username: 'ana', role: 'DEV', ... }
 */
export async function changeRole(store: AccountStore, username: string, role: string): Promise<Account | undefined> {
  if (!ROLES.includes(role as Role)) throw new Error(`role must be one of ${ROLES.join(', ')}, got '${role}'`);
  const account = await store.find({ username });
  return account && store.update(account.uuid, { role: role as Role });
}

/**
 * Accounts as an aligned text table: username, email, role, created_at, uuid.
 *
 * @example
 * accountTable(await store.list());
 * // USERNAME  EMAIL            ROLE   CREATED_AT                UUID
 * // ana       ana@example.org  ADMIN  2024-03-01T10:15:30.120Z  6f0c...
 */
export function accountTable(accounts: readonly Account[]): string {
  const rows = [['USERNAME', 'EMAIL', 'ROLE', 'CREATED_AT', 'UUID'], ...accounts.map((a) => [a.username, a.email, a.role, a.created_at, a.uuid])];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()).join('\n');
}
