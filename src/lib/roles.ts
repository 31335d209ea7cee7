/**
 * The roles of an account, in increasing order of trust; BASIC is what a self-registered
 * account gets. Accounts store one; rate limits give each its own budget.
 */
export const ROLES = ['BASIC', 'DEV', 'MAINTAINER', 'ADMIN'] as const;

/** One of ROLES. */
export type Role = (typeof ROLES)[number];

/**
 * Whether `role` writes to the shared catalog (MAINTAINER and ADMIN, as in HawAPI); in classroom mode the others write
 * to a sandbox.
 */
export function curates(role: Role): boolean {
  return role === 'MAINTAINER' || role === 'ADMIN';
}
