import type { Redis } from 'ioredis';
import { OverlayNotSaved, type OverlayStore, type OverlayWrite } from './store.ts';

// One hash tag, so a Redis Cluster keeps the keys in one slot for the script below.
/** The number of the last write ever appended (it outlives `fold`). */
const END = '{catalog}:overlay:end';
/** The writes, scored by number; each member is `<seq> <json>`, unique by its number. */
const WRITES = '{catalog}:overlay:writes';
/** Announces each append, so that every instance applies it at once. */
const APPENDED = '{catalog}:overlay:appended';

/** Appends a write if the overlay still ends where the caller last saw it; 0 when it does not. */
const APPEND = `
local last = tonumber(redis.call('GET', KEYS[1]) or '0')
if last ~= tonumber(ARGV[1]) then return 0 end
local seq = last + 1
redis.call('SET', KEYS[1], seq)
redis.call('ZADD', KEYS[2], seq, seq .. ' ' .. ARGV[2])
redis.call('PUBLISH', KEYS[3], seq)
return seq`;

type Scripted = Redis & {
  overlayAppend(end: string, writes: string, channel: string, after: number, json: string): Promise<number>;
};

/** How often an instance looks for writes whose announcement it missed (a reconnect). */
const POLL_MS = 500;

/**
 * The catalog overlay in the Redis every instance shares: writes are numbered by one atomic
 * script (append only if nobody appended since the writer last looked), announced on a
 * channel, and looked for every 500 ms in case an announcement was lost, so each instance
 * serves another's write within a second. A Redis that cannot persist or cannot be reached
 * makes the write a 503 with nothing changed.
 *
 * @example
 * const overlay = new RedisOverlayStore(redis, redis.duplicate());
 */
export class RedisOverlayStore implements OverlayStore {
  readonly #redis: Scripted;
  #poll?: NodeJS.Timeout;

  constructor(
    redis: Redis,
    private readonly subscriber: Redis,
  ) {
    this.#redis = redis as Scripted;
    if (typeof this.#redis.overlayAppend !== 'function')
      redis.defineCommand('overlayAppend', { numberOfKeys: 3, lua: APPEND });
  }

  async since(seq: number): Promise<OverlayWrite[]> {
    let members: string[];
    try {
      members = await this.#redis.zrangebyscore(WRITES, `(${seq}`, '+inf');
    } catch (error) {
      throw new Error(`cannot read the catalog overlay from Redis: ${(error as Error).message}`);
    }
    return members.map((member) => {
      const space = member.indexOf(' ');
      return {
        ...(JSON.parse(member.slice(space + 1)) as Omit<OverlayWrite, 'seq'>),
        seq: Number(member.slice(0, space)),
      };
    });
  }

  async end(): Promise<number> {
    try {
      return Number((await this.#redis.get(END)) ?? 0);
    } catch (error) {
      throw new Error(`cannot read the catalog overlay from Redis: ${(error as Error).message}`);
    }
  }

  async append(write: Omit<OverlayWrite, 'seq'>, after: number): Promise<{ seq: number } | { behind: OverlayWrite[] }> {
    const seq = await this.#saving(() =>
      this.#redis.overlayAppend(END, WRITES, APPENDED, after, JSON.stringify(write)),
    );
    return seq ? { seq } : { behind: await this.since(after) };
  }

  async fold(through: number): Promise<void> {
    await this.#saving(() => this.#redis.zremrangebyscore(WRITES, '-inf', through));
  }

  onChange(listener: () => void): void {
    this.subscriber.on('message', listener);
    this.subscriber.on('error', () => {});
    void this.subscriber.subscribe(APPENDED).catch(() => undefined);
    this.#poll = setInterval(listener, POLL_MS);
    this.#poll.unref();
  }

  close(): void {
    clearInterval(this.#poll);
    this.subscriber.disconnect();
    this.#redis.disconnect();
  }

  async #saving<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      // MISCONF (its disk full), READONLY (a replica), OOM, or simply unreachable: nothing was appended.
      throw new OverlayNotSaved('Redis', (error as Error).message);
    }
  }
}
