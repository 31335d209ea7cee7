import { ROLES, type Role } from '../lib/roles.ts';

/** Who a request counts against: an account's role, or `anonymous` for everyone else. */
export type Tier = 'anonymous' | Role;

export const TIERS: readonly Tier[] = ['anonymous', ...ROLES];
