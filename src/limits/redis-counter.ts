import type { Redis } from 'ioredis';
import { verdictOf, type Verdict, type WindowCounter } from './window-counter.ts';

/**
 * Counts ARGV[2] requests and reads the window's end in one round trip: the first request of
 * a window sets the key's expiry, so the key itself is the window.
 */
const HIT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

const PEEK = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
return {count, redis.call('PTTL', KEYS[1])}`;

type Scripted = Redis & {
  windowHit(key: string, windowMs: number, requests: number): Promise<[number, number]>;
  windowPeek(key: string): Promise<[number, number]>;
};

/** Teaches `redis` the two scripts (sent once, then called by hash). */
function scripted(redis: Redis): Scripted {
  const commands = redis as Scripted;
  if (typeof commands.windowHit !== 'function') {
    redis.defineCommand('windowHit', { numberOfKeys: 1, lua: HIT });
    redis.defineCommand('windowPeek', { numberOfKeys: 1, lua: PEEK });
  }
  return commands;
}

/** Requests of one key that came while its count was on the way to Redis: counted together next. */
type Waiting = { resolve: (verdict: Verdict) => void; reject: (error: unknown) => void }[];

/** Places in a key's count this instance took from Redis ahead of its requests. */
interface Lease {
  /** Runs of places, first to last inclusive, in the order they are handed out; empty: used up. */
  runs: [number, number][];
  /** End of the key's window, epoch ms: the places are worthless after it. */
  reset: number;
}

/**
 * Most places taken ahead for one key at a time: a client may be refused up to twice this many requests early per other
 * instance.
 */
export const MAX_LEASE = 32;
/** Ahead-taken places never exceed this share of what is left of a budget, so the last places go one by one. */
const LEASE_SHARE = 16;
/** Keys with places taken ahead; past it no other key gets any (the rest count exactly). */
const MAX_LEASED_KEYS = 10_000;

function placesLeft(lease: Lease): number {
  let left = 0;
  for (const [first, last] of lease.runs) left += last - first + 1;
  return left;
}

/**
 * A window counter in Redis, shared by every instance that uses the same Redis and
 * `namespace`. Every request gets its own place in its key's count (`INCRBY n` returns the
 * last of n consecutive places) and is allowed when its place is within the limit, so no more
 * than the limit is ever allowed across instances. Two things keep a busy client from costing
 * a round trip per request:
 * - a key has at most one count on the way to Redis; requests that come meanwhile wait and
 *   are counted together in the next round trip;
 * - a busy key (several requests waiting at once, or its places used up) takes up to
 *   MAX_LEASE places ahead, never more than 1/LEASE_SHARE of what is left of the budget, and
 *   takes the next ones before these run out: its requests then get their places at once,
 *   without a round trip. Places taken ahead and not used are lost to the client, which may
 *   then be refused that many requests early, never late.
 * A failure or timeout of Redis rejects every request of the batch, and the caller decides to
 * let them through.
 *
 * @example
 * const auth = new RedisCounter(redis, 'rate:auth', 10, 60_000);
 * await auth.hit('203.0.113.7');
 */
export class RedisCounter implements WindowCounter {
  private readonly redis: Scripted;
  /** Keys with a count on the way to Redis, and the requests that came since (undefined: none). */
  private readonly pending = new Map<string, Waiting | undefined>();
  private readonly leases = new Map<string, Lease>();

  constructor(
    redis: Redis,
    private readonly namespace: string,
    readonly limit: number,
    readonly windowMs: number,
  ) {
    this.redis = scripted(redis);
  }

  hit(key: string): Verdict | Promise<Verdict> {
    const name = `${this.namespace}:${key}`;
    const place = this.leased(name);
    if (place) return verdictOf(place.place, this.limit, place.reset);
    return new Promise((resolve, reject) => {
      if (!this.pending.has(name)) {
        this.pending.set(name, undefined);
        this.send(name, [{ resolve, reject }]);
        return;
      }
      let waiting = this.pending.get(name);
      if (!waiting) this.pending.set(name, (waiting = []));
      waiting.push({ resolve, reject });
    });
  }

  /** A place taken ahead for `name`, taking the next ones when few are left; undefined when there is none. */
  private leased(name: string): { place: number; reset: number } | undefined {
    const lease = this.leases.get(name);
    if (!lease) return undefined;
    if (lease.reset <= Date.now()) {
      this.leases.delete(name);
      return undefined;
    }
    const run = lease.runs[0];
    if (!run) return undefined;
    const place = run[0]++;
    if (run[0] > run[1]) lease.runs.shift();
    if (placesLeft(lease) < MAX_LEASE / 2 && !this.pending.has(name)) {
      this.pending.set(name, undefined);
      this.send(name, []);
    }
    return { place, reset: lease.reset };
  }

  /** Places to take ahead with the next count of `name`: none for a key that is not busy. */
  private ahead(name: string, batch: number): number {
    const lease = this.leases.get(name);
    const busy = batch !== 1 || (lease !== undefined && lease.runs.length === 0);
    if (!busy || (!lease && !this.roomForLease())) return 0;
    const counted = lease?.runs.at(-1)?.[1] ?? 0;
    return Math.max(0, Math.min(MAX_LEASE, Math.floor((this.limit - counted - batch) / LEASE_SHARE)));
  }

  /** Counts `batch` (and the places taken ahead) in one round trip, then the requests that came meanwhile. */
  private send(name: string, batch: Waiting): void {
    const extra = this.ahead(name, batch.length);
    if (batch.length + extra === 0) {
      this.settled(name);
      return;
    }
    this.redis
      .windowHit(name, this.windowMs, batch.length + extra)
      .then(
        ([count, ttl]) => {
          const reset = Date.now() + ttl;
          const first = count - extra - batch.length + 1;
          batch.forEach(({ resolve }, i) => resolve(verdictOf(first + i, this.limit, reset)));
          if (extra > 0) this.keep(name, [count - extra + 1, count], reset);
        },
        (error: unknown) => batch.forEach(({ reject }) => reject(error)),
      )
      .finally(() => this.settled(name));
  }

  /** Adds places taken ahead to the key's lease (replacing places of an earlier window). */
  private keep(name: string, run: [number, number], reset: number): void {
    const lease = this.leases.get(name);
    // Places of the same window end within a round trip of each other; older ones ended before.
    if (lease && Math.abs(lease.reset - reset) < 1000) lease.runs.push(run);
    else this.leases.set(name, { runs: [run], reset });
  }

  /** The count of `name` came back: the requests that came meanwhile go next. */
  private settled(name: string): void {
    const next = this.pending.get(name);
    if (next) {
      this.pending.set(name, undefined);
      this.send(name, next);
    } else {
      this.pending.delete(name);
    }
  }

  /** Whether another key may take places ahead; leases of ended windows make room. */
  private roomForLease(): boolean {
    if (this.leases.size < MAX_LEASED_KEYS) return true;
    const now = Date.now();
    for (const [name, lease] of this.leases) if (lease.reset <= now) this.leases.delete(name);
    return this.leases.size < MAX_LEASED_KEYS;
  }

  async peek(key: string): Promise<Verdict> {
    const [count, ttl] = await this.redis.windowPeek(`${this.namespace}:${key}`);
    return verdictOf(count, this.limit, Date.now() + Math.max(0, ttl === -2 ? this.windowMs : ttl));
  }
}
