import ipaddr from 'ipaddr.js';
import type { Tier } from './tiers.ts';

/** Whom a request counts against: a key for the counter, its tier, and a name for messages. */
export interface Client {
  key: string;
  tier: Tier;
  name: string;
}

/**
 * The address a request came from: the connection's peer, or, behind `hops` proxies that
 * each append to `X-Forwarded-For` (nginx's `$proxy_add_x_forwarded_for`), the entry the
 * outermost trusted proxy wrote, counted from the right. Entries further left were written
 * by the client itself and are never trusted.
 *
 * @example
 * clientAddress('10.0.0.2', '6.6.6.6, 203.0.113.7', 1); // '203.0.113.7'
 * clientAddress('10.0.0.2', '6.6.6.6, 203.0.113.7', 0); // '10.0.0.2'
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | undefined, hops: number): string {
  if (hops > 0 && forwardedFor) {
    const entries = forwardedFor.split(',');
    // Fewer entries than hops: the request skipped a proxy; its leftmost entry is the best known.
    const entry = entries[Math.max(0, entries.length - hops)]!.trim();
    if (entry) return entry;
  }
  return peer ?? '';
}

/** Clients already seen, by address: parsing an address costs more than the rest of a limit check. */
const known = new Map<string, Client>();
const KNOWN_ADDRESSES = 10_000;

/**
 * The budget key of an address: IPv4 addresses (IPv4-mapped IPv6 included) one by one,
 * IPv6 addresses by their /64 prefix, since one host commonly holds a whole /64 and could
 * otherwise start a fresh budget with every address. Anything that is not an IP address
 * (a misconfigured proxy header) is kept as text, capped in length.
 */
function keyOf(address: string): string {
  if (!ipaddr.isValid(address)) return address.slice(0, 64);
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(':')}::/64`;
}

/**
 * The anonymous client at `address`, remembered for the next request from it.
 *
 * @example
 * anonymousClient('2001:db8::1'); // { key: 'ip:2001:db8:0:0::/64', tier: 'anonymous', name: 'address 2001:db8:0:0::/64' }
 */
export function anonymousClient(address: string): Client {
  let client = known.get(address);
  if (!client) {
    const key = keyOf(address);
    client = { key: `ip:${key}`, tier: 'anonymous', name: `address ${key}` };
    if (known.size >= KNOWN_ADDRESSES) known.clear();
    known.set(address, client);
  }
  return client;
}
