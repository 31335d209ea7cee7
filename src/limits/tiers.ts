/** Who a request counts against: an account's role, or `anonymous` for everyone else. */
export type Tier = 'anonymous' | 'BASIC' | 'DEV' | 'MAINTAINER' | 'ADMIN';

export const TIERS: readonly Tier[] = ['anonymous', 'BASIC', 'DEV', 'MAINTAINER', 'ADMIN'];
