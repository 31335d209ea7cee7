import type { Config } from '../config/env.ts';

/** Who a request counts against: an account's role, or `anonymous` for everyone else. */
export type Tier = 'anonymous' | 'BASIC' | 'DEV' | 'MAINTAINER' | 'ADMIN';

export const TIERS: readonly Tier[] = ['anonymous', 'BASIC', 'DEV', 'MAINTAINER', 'ADMIN'];

/**
 * Requests per window of each tier, from the configuration (`Infinity`: not limited).
 *
 * @example
 * tierLimits(config).anonymous; // 60
 */
export function tierLimits(config: Config): Record<Tier, number> {
  return {
    anonymous: config.RATE_LIMIT_ANONYMOUS,
    BASIC: config.RATE_LIMIT_BASIC,
    DEV: config.RATE_LIMIT_DEV,
    MAINTAINER: config.RATE_LIMIT_MAINTAINER,
    ADMIN: config.RATE_LIMIT_ADMIN,
  };
}
