import ipaddr from 'ipaddr.js';
import { memo } from '../lib/memo.ts';
import type { Tier } from './tiers.ts';

/** Whom a request counts against: a key for the counter, its tier, and a name for messages. */
export interface Client {
  key: string;
  tier: Tier;
  name: string;
}

/**
 * An `X-Forwarded-For` entry as an IP address: IPv4 in dotted decimal or IPv6, with the port
 * or brackets some proxies add taken off (`203.0.113.7:4711`, `[2001:db8::1]:443`). Anything
 * else (a name, `unknown`, a shortened or hexadecimal IPv4 form) is not an address.
 *
 * @example
 * forwardedAddress('[2001:db8::1]:443'); // '2001:db8::1'
 * forwardedAddress('w123'); // undefined
 */
export function forwardedAddress(entry: string): string | undefined {
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(entry);
  const candidate = bracketed ? bracketed[1]! : entry.replace(/^((?:\d{1,3}\.){3}\d{1,3}):\d{1,5}$/, '$1');
  if (ipaddr.IPv4.isValidFourPartDecimal(candidate) || ipaddr.IPv6.isValid(candidate)) return candidate;
  return undefined;
}

/**
 * The address a request came from: the connection's peer, or, behind `hops` proxies that
 * each append to `X-Forwarded-For` (nginx's `$proxy_add_x_forwarded_for`), the entry the
 * outermost trusted proxy wrote, counted from the right. Entries further left were written
 * by the client itself and are never trusted. A trusted entry that is not an IP address (a
 * misconfigured proxy, or `TRUST_PROXY` counting more proxies than there are) counts as the
 * peer, so no made-up value can open a budget of its own; `malformed` hears of it.
 *
 * @example
 * clientAddress('10.0.0.2', '6.6.6.6, 203.0.113.7', 1); // '203.0.113.7'
 * clientAddress('10.0.0.2', '6.6.6.6, 203.0.113.7', 0); // '10.0.0.2'
 * clientAddress('10.0.0.2', 'garbage', 1); // '10.0.0.2'
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | undefined,
  hops: number,
  malformed: (entry: string) => void = () => {},
): string {
  if (hops > 0 && forwardedFor) {
    const entries = forwardedFor.split(',');
    // Fewer entries than hops: the request skipped a proxy; its leftmost entry is the best known.
    const entry = entries[Math.max(0, entries.length - hops)]!.trim();
    const address = forwardedAddress(entry);
    if (address) return address;
    malformed(entry);
  }
  return peer ?? '';
}

/**
 * The budget key of an address: IPv4 addresses (IPv4-mapped IPv6 included) one by one,
 * IPv6 addresses by their /64 prefix, since one host commonly holds a whole /64 and could
 * otherwise start a fresh budget with every address. A socket already gone has no peer
 * address: it is kept as the empty text.
 */
function keyOf(address: string): string {
  if (!ipaddr.isValid(address)) return '';
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(':')}::/64`;
}

/**
 * The anonymous client at `address`, remembered for the next request from it: parsing an
 * address costs more than the rest of a limit check (at most 10,000 addresses of at most 45
 * characters, about 2 MB).
 *
 * @example
 * anonymousClient('2001:db8::1');
 * // { key: 'ip:2001:db8:0:0::/64', tier: 'anonymous', name: 'address 2001:db8:0:0::/64' }
 */
export const anonymousClient: (address: string) => Client = memo(
  (address) => {
    const key = keyOf(address);
    return { key: `ip:${key}`, tier: 'anonymous', name: `address ${key}` };
  },
  { entries: 10_000 },
);
