import type { Redis } from 'ioredis';
import { HttpError } from '../lib/http-error.ts';
import { OverlayNotSaved, type Appended, type OverlayStore, type OverlayWrite, type SandboxStore } from './store.ts';

/** One numbered log of writes in Redis: where its keys start, and what messages call it. */
export interface RedisLog {
  /** The start of its keys: one hash tag, so a Redis Cluster keeps them in one slot for the scripts below. */
  prefix: string;
  /** `catalog overlay`: the log, in messages. */
  name: string;
  /** `catalog writes`: the requests that answer 503 while Redis is away. */
  writes: string;
}

/** The curators' writes, which every client is served. */
export const OVERLAY_LOG: RedisLog = {
  prefix: '{catalog}:overlay:',
  name: 'catalog overlay',
  writes: 'catalog writes',
};
/** The classroom sandboxes' writes: apart from the overlay's, numbered on their own. */
export const SANDBOX_LOG: RedisLog = { prefix: '{catalog}:sandboxes:', name: 'sandboxes', writes: 'sandbox writes' };

/**
 * A log's keys: the number of the last write ever appended (it outlives `fold` and `drop`), the
 * writes scored by number (each member `<seq> <json>`, unique by its number), how many drops
 * it took, and the channel announcing each append and drop.
 */
const keysOf = ({ prefix }: RedisLog) =>
  [`${prefix}end`, `${prefix}writes`, `${prefix}drops`, `${prefix}appended`] as const;

/**
 * Appends the writes ARGV[2], ARGV[3]… if the log still ends where the caller last saw it
 * (ARGV[1]), in one step: the last one's number and the number of drops (the rest of the
 * mark); 0 when it does not.
 */
const APPEND = `
local last = tonumber(redis.call('GET', KEYS[1]) or '0')
if last ~= tonumber(ARGV[1]) then return 0 end
for i = 2, #ARGV do redis.call('ZADD', KEYS[2], last + i - 1, (last + i - 1) .. ' ' .. ARGV[i]) end
local seq = last + #ARGV - 1
redis.call('SET', KEYS[1], seq)
redis.call('PUBLISH', KEYS[4], seq)
return {seq, tonumber(redis.call('GET', KEYS[3]) or '0')}`;

/**
 * Forgets the writes numbered ARGV[2], ARGV[3]… if nothing was appended since the caller read
 * them (the log still ends at ARGV[1]); 0 otherwise. The end stays: numbers are never reused.
 */
const DROP = `
if tonumber(redis.call('GET', KEYS[1]) or '0') ~= tonumber(ARGV[1]) then return 0 end
for i = 2, #ARGV do redis.call('ZREMRANGEBYSCORE', KEYS[2], ARGV[i], ARGV[i]) end
redis.call('INCR', KEYS[3])
redis.call('PUBLISH', KEYS[4], 'drop')
return 1`;

type Scripted = Redis & {
  overlayAppend(
    end: string,
    writes: string,
    drops: string,
    channel: string,
    after: number,
    ...json: string[]
  ): Promise<0 | [number, number]>;
  logDrop(end: string, writes: string, drops: string, channel: string, ...args: number[]): Promise<number>;
};

/** How often an instance looks for writes whose announcement it missed (a reconnect). */
const POLL_MS = 500;
/** How many times a drop reads the log again when appends keep coming between its read and its step. */
const DROP_TRIES = 10;

const parsed = (member: string): OverlayWrite => {
  const space = member.indexOf(' ');
  return { ...(JSON.parse(member.slice(space + 1)) as Omit<OverlayWrite, 'seq'>), seq: Number(member.slice(0, space)) };
};

/**
 * A log of writes in the Redis every instance shares: the catalog overlay, or the classroom
 * sandboxes (`SANDBOX_LOG`). Writes are numbered by one atomic script (append only if nobody
 * appended since the writer last looked), announced on a channel, and looked for every 500 ms
 * in case an announcement was lost, so each instance serves another's write within a second.
 * A drop is one script too, refused (and read again) if a write was appended meanwhile. A
 * Redis that cannot persist or cannot be reached makes the write a 503 with nothing changed.
 *
 * @example
 * const overlay = new RedisOverlayStore(redis, redis.duplicate());
 * const sandboxes = new RedisOverlayStore(redis, redis.duplicate(), SANDBOX_LOG);
 */
export class RedisOverlayStore implements OverlayStore, SandboxStore {
  readonly #redis: Scripted;
  readonly #end: string;
  readonly #writes: string;
  readonly #drops: string;
  readonly #channel: string;
  #poll?: NodeJS.Timeout;

  constructor(
    redis: Redis,
    private readonly subscriber: Redis,
    private readonly log: RedisLog = OVERLAY_LOG,
  ) {
    this.#redis = redis as Scripted;
    [this.#end, this.#writes, this.#drops, this.#channel] = keysOf(log);
    if (typeof this.#redis.overlayAppend !== 'function')
      redis.defineCommand('overlayAppend', { numberOfKeys: 4, lua: APPEND });
    if (typeof this.#redis.logDrop !== 'function') redis.defineCommand('logDrop', { numberOfKeys: 4, lua: DROP });
  }

  async since(seq: number): Promise<OverlayWrite[]> {
    const members = await this.#reading(() => this.#redis.zrangebyscore(this.#writes, `(${seq}`, '+inf'));
    return members.map(parsed);
  }

  async end(): Promise<number> {
    return Number((await this.#reading(() => this.#redis.get(this.#end))) ?? 0);
  }

  /** The end and the number of drops: an append moves the one, a drop the other. */
  async mark(): Promise<string> {
    const [end, drops] = await this.#reading(() => this.#redis.mget(this.#end, this.#drops));
    return `${end ?? 0} ${drops ?? 0}`;
  }

  append(write: Omit<OverlayWrite, 'seq'>, after: number): Promise<Appended | { behind: OverlayWrite[] }> {
    return this.appendAll([write], after);
  }

  async appendAll(writes: Omit<OverlayWrite, 'seq'>[], after: number): Promise<Appended | { behind: OverlayWrite[] }> {
    const keys = [this.#end, this.#writes, this.#drops, this.#channel] as const;
    const json = writes.map((write) => JSON.stringify(write));
    const taken = await this.#saving(() => this.#redis.overlayAppend(...keys, after, ...json));
    if (!taken) return { behind: await this.since(after) };
    const [seq, drops] = taken;
    return { seq, mark: { before: `${after} ${drops}`, after: `${seq} ${drops}` } };
  }

  async fold(through: number): Promise<void> {
    await this.#saving(() => this.#redis.zremrangebyscore(this.#writes, '-inf', through));
  }

  async drop(leave: (write: OverlayWrite) => boolean): Promise<void> {
    for (let tries = 1; ; tries++) {
      // The end first: a write appended after it is read makes the script refuse, whatever the list shows.
      const end = await this.#saving(() => this.#redis.get(this.#end));
      const members = await this.#saving(() => this.#redis.zrange(this.#writes, 0, -1));
      const gone = members.map(parsed).flatMap((write) => (leave(write) ? [write.seq] : []));
      if (!gone.length) return;
      const keys = [this.#end, this.#writes, this.#drops, this.#channel] as const;
      if (await this.#saving(() => this.#redis.logDrop(...keys, Number(end ?? 0), ...gone))) return;
      if (tries === DROP_TRIES)
        throw new OverlayNotSaved('Redis', `writes kept being appended to the ${this.log.name} meanwhile`);
    }
  }

  onChange(listener: () => void): void {
    this.subscriber.on('message', listener);
    this.subscriber.on('error', () => {});
    // Once ready: a SUBSCRIBE sent while ioredis still checks a new connection fails that check, and
    // the connection comes back unsubscribed (leaving this instance to the 500 ms poll).
    const subscribe = () => void this.subscriber.subscribe(this.#channel).catch(() => undefined);
    if (this.subscriber.status === 'ready') subscribe();
    else this.subscriber.once('ready', subscribe);
    this.#poll = setInterval(listener, POLL_MS);
    this.#poll.unref();
  }

  close(): void {
    clearInterval(this.#poll);
    this.subscriber.disconnect();
    this.#redis.disconnect();
  }

  /** Runs a read: a Redis that cannot answer makes it a 503 naming Redis. */
  async #reading<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      const reason = `the ${this.log.name}: ${(error as Error).message}`;
      throw new HttpError(503, `Redis could not be read (${reason}); nothing was changed, retry in 30 s`, {
        'Retry-After': '30',
      });
    }
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
