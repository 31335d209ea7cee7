import { ROLES, type Role } from '../lib/roles.ts';
import type { Account } from './account.ts';
import { accountsFileProblem } from './accounts-file.ts';
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
  const rows = [
    ['USERNAME', 'EMAIL', 'ROLE', 'CREATED_AT', 'UUID'],
    ...accounts.map((a) => [a.username, a.email, a.role, a.created_at, a.uuid]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/**
 * Every account, password hashes included, as the JSON of an accounts file: what `import`
 * reads, so accounts move between the file and Redis without anyone registering again.
 *
 * @example
 * await exportAccounts(store); // '{\n  "accounts": [ ... ]\n}'
 */
export async function exportAccounts(store: AccountStore): Promise<string> {
  return JSON.stringify({ accounts: await store.list() }, null, 2);
}

/**
 * Adds the accounts of an export (`{ "accounts": [...] }`) to `store`, each as it was (uuid,
 * hash and timestamps kept); one whose username or email the store already has is refused
 * and named. Rejects, importing nothing, when the text is not a valid export.
 *
 * @example
 * await importAccounts(store, text); // { imported: 12, refused: ["username 'ana' is already there"] }
 */
export async function importAccounts(
  store: AccountStore,
  text: string,
): Promise<{ imported: number; refused: string[] }> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`not JSON: ${(error as Error).message}`);
  }
  const problem = accountsFileProblem(data);
  if (problem) throw new Error(`not an accounts export: ${problem}`);
  let imported = 0;
  const refused: string[] = [];
  for (const account of (data as { accounts: Account[] }).accounts) {
    const result = await store.create(account);
    if ('created' in result) imported++;
    else refused.push(result.taken.map((field) => `${field} '${account[field]}'`).join(' and ') + ' already there');
  }
  return { imported, refused };
}
