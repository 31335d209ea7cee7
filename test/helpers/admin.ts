import { openStore, passwordHasher } from '../../src/accounts/open.ts';
import { createAccount, readRegisterBody } from '../../src/accounts/service.ts';
import { accountOptions } from '../../src/parts.ts';
import { createLogger } from '../../src/config/logger.ts';
import { newUser, post, type RunningApp } from './accounts-app.ts';

/**
 * An account of `role` created the way `npm run accounts -- create` does (straight into the
 * server's store, while it runs), then signed in over HTTP once the server has seen it (it
 * reads the accounts file again when it changes); returns its token.
 */
export async function tokenWithRole(app: RunningApp, role: string, n: string): Promise<string> {
  const store = await openStore(accountOptions(app.config).store, createLogger({ level: 'silent', format: 'text' }));
  try {
    await createAccount(
      store,
      readRegisterBody(newUser(n, { role })),
      passwordHasher({ scryptN: 1024, hashes: { concurrent: 2, queued: 8 } }),
    );
  } finally {
    store.close();
  }
  for (const deadline = Date.now() + 10_000; ;) {
    const { status, body } = await post(app.url, '/api/v1/auth/authenticate', {
      username: `user_${n}`,
      password: `password of ${n}`,
    });
    if (status === 200) return String(body.token);
    if (status !== 401 || Date.now() > deadline) throw new Error(`signing in ${n}: ${status} ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
