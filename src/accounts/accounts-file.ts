import { UUID_PATTERN } from '../lib/formats.ts';
import { compileValidator } from '../lib/validators.ts';
import { ROLES } from '../lib/roles.ts';
import type { Account } from './account.ts';
import { HASH_PATTERN } from './passwords.ts';

/** What the accounts file holds. */
export interface AccountsData {
  accounts: Account[];
}

const string = { type: 'string', minLength: 1 };

const validate = compileValidator<AccountsData>({
  type: 'object',
  properties: {
    accounts: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          uuid: { type: 'string', pattern: UUID_PATTERN },
          username: string,
          email: string,
          first_name: string,
          last_name: string,
          role: { type: 'string', enum: ROLES },
          password_hash: { type: 'string', pattern: HASH_PATTERN },
          created_at: string,
          updated_at: string,
        },
        required: [
          'uuid',
          'username',
          'email',
          'first_name',
          'last_name',
          'role',
          'password_hash',
          'created_at',
          'updated_at',
        ],
      },
    },
  },
  required: ['accounts'],
});

/**
 * The first problem that makes `data` unusable as the accounts file's content: a wrong
 * shape, or a uuid, username or email held twice (usernames and emails case-insensitively).
 *
 * @example
 * accountsFileProblem({ accounts: [{ uuid: 'x' }] }); // "/accounts/0: must have required property 'username'"
 */
export function accountsFileProblem(data: unknown): string | undefined {
  if (!validate(data)) {
    const error = validate.errors![0]!;
    return `${error.instancePath || 'top level'}: ${error.message}`;
  }
  const seen = new Set<string>();
  for (const [position, account] of data.accounts.entries()) {
    for (const key of [
      `uuid ${account.uuid}`,
      `username ${account.username.toLowerCase()}`,
      `email ${account.email.toLowerCase()}`,
    ]) {
      if (seen.has(key)) return `/accounts/${position}: ${key} appears twice`;
      seen.add(key);
    }
  }
  return undefined;
}
