import { passwordHasher } from '../../src/accounts/open.ts';
import { createAccount, readRegisterBody } from '../../src/accounts/service.ts';
import { newUser, post, type RunningApp } from './accounts-app.ts';

/**
 * An account of `role` created the way `npm run accounts -- create` does (straight into the
 * store), signed in over HTTP; returns its token.
 */
export async function tokenWithRole(app: RunningApp, role: string, n: string): Promise<string> {
  await createAccount(app.accounts.store, readRegisterBody(newUser(n, { role })), passwordHasher({ scryptN: 1024, hashes: { concurrent: 2, queued: 8 } }));
  const { status, body } = await post(app.url, '/api/v1/auth/authenticate', { username: `user_${n}`, password: `password of ${n}` });
  if (status !== 200) throw new Error(`signing in ${n}: ${status} ${JSON.stringify(body)}`);
  return String(body.token);
}
