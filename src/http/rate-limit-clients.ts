import type { Context } from 'koa';
import { bearerOf } from './bearer.ts';
import type { AccountService } from '../accounts/service.ts';
import { byAddress, type Client, type Identify } from '../limits/limits.ts';

/**
 * Counts a request against its account when it carries a valid bearer token (in the tier of
 * the account's current role), else against its address. A refused token counts as its
 * address, so a flood of bad tokens is limited like any anonymous flood.
 *
 * @example
 * app.use(limits.middleware(byAccount(accounts)));
 */
export function byAccount(accounts: AccountService): Identify {
  return async (ctx: Context): Promise<Client> => {
    const { caller } = await bearerOf(ctx, accounts);
    return caller ? { key: `account:${caller.uuid}`, tier: caller.role, name: `account '${caller.username}'` } : byAddress(ctx);
  };
}
