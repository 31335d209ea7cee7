import type { Redis } from 'ioredis';
import type { Account } from './account.ts';
import {
  AccountsNotSaved,
  AccountsUnavailable,
  type AccountChanges,
  type AccountKey,
  type AccountStore,
  type TakenField,
} from './store.ts';

// Every key shares the hash tag {accounts}, so a Redis Cluster keeps them in one slot and the
// scripts below may touch them together.
const BY_UUID = '{accounts}:uuid:';
const BY_USERNAME = '{accounts}:username:';
const BY_EMAIL = '{accounts}:email:';
const CREATED = '{accounts}:created';
/** Where every change is announced, so that each instance drops what it remembers of the account. */
const CHANGES = '{accounts}:changes';

/** Creates an account unless its username or email is taken: one atomic step, never check-then-write. */
const CREATE = `
local taken = {}
if redis.call('EXISTS', KEYS[2]) == 1 then table.insert(taken, 'username') end
if redis.call('EXISTS', KEYS[3]) == 1 then table.insert(taken, 'email') end
if #taken > 0 then return taken end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], ARGV[1])
redis.call('SET', KEYS[3], ARGV[1])
redis.call('ZADD', KEYS[4], ARGV[3], ARGV[1])
return {}`;

/** Deletes an account and the index entries that still point to it; announces it. */
const DELETE = `
if redis.call('DEL', KEYS[1]) == 0 then return 0 end
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
if redis.call('GET', KEYS[3]) == ARGV[1] then redis.call('DEL', KEYS[3]) end
redis.call('ZREM', KEYS[4], ARGV[1])
redis.call('PUBLISH', KEYS[5], ARGV[1])
return 1`;

/** Replaces an existing account's stored JSON (never recreating a deleted one); announces it. */
const UPDATE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('PUBLISH', KEYS[2], ARGV[1])
return 1`;

/** An account by username or email: the index, then the record, in one round trip. */
const FIND_BY = `
local uuid = redis.call('GET', KEYS[1])
if not uuid then return false end
return redis.call('GET', '${BY_UUID}' .. uuid)`;

type Scripted = Redis & {
  accountCreate(
    byUuid: string,
    byUsername: string,
    byEmail: string,
    created: string,
    uuid: string,
    json: string,
    score: number,
  ): Promise<TakenField[]>;
  accountDelete(
    byUuid: string,
    byUsername: string,
    byEmail: string,
    created: string,
    channel: string,
    uuid: string,
  ): Promise<number>;
  accountUpdate(byUuid: string, channel: string, uuid: string, json: string): Promise<number>;
  accountFindBy(index: string): Promise<string | null>;
};

function scripted(redis: Redis): Scripted {
  const commands = redis as Scripted;
  if (typeof commands.accountCreate !== 'function') {
    redis.defineCommand('accountCreate', { numberOfKeys: 4, lua: CREATE });
    redis.defineCommand('accountDelete', { numberOfKeys: 5, lua: DELETE });
    redis.defineCommand('accountUpdate', { numberOfKeys: 2, lua: UPDATE });
    redis.defineCommand('accountFindBy', { numberOfKeys: 1, lua: FIND_BY });
  }
  return commands;
}

/** How long an instance may answer from what it remembers of an account when no change was announced. */
const REMEMBER_MS = 1000;

/**
 * Accounts in Redis, shared by every instance that uses the same Redis: usernames and emails
 * are unique across all of them (created in one atomic script), and a deletion or a change of
 * role is announced on a channel every instance listens to, which drops what it remembers at
 * once; what an instance remembers of an account (for the bearer tokens of reads) is never
 * more than a second old even if an announcement is lost.
 *
 * @example
 * const store = await RedisAccountStore.open(redis);
 * await store.create(account); // { created } or { taken: ['username'] }
 */
export class RedisAccountStore implements AccountStore {
  private readonly redis: Scripted;
  private readonly remembered = new Map<string, { account: Account | undefined; at: number }>();

  private constructor(
    redis: Redis,
    private readonly subscriber: Redis,
  ) {
    this.redis = scripted(redis);
  }

  /** A store on `redis`, listening for changes made by other instances. */
  static async open(redis: Redis): Promise<RedisAccountStore> {
    const subscriber = redis.duplicate({ enableOfflineQueue: true });
    const store = new RedisAccountStore(redis, subscriber);
    subscriber.on('message', (_channel: string, uuid: string) => store.remembered.delete(uuid));
    // A subscriber that reconnects has missed announcements: forget everything.
    subscriber.on('ready', () => store.remembered.clear());
    subscriber.on('error', () => {});
    await subscriber.subscribe(CHANGES).catch(() => undefined);
    return store;
  }

  async create(account: Account): Promise<{ created: Account } | { taken: TakenField[] }> {
    const taken = await this.call(() =>
      this.redis.accountCreate(
        BY_UUID + account.uuid,
        BY_USERNAME + account.username.toLowerCase(),
        BY_EMAIL + account.email.toLowerCase(),
        CREATED,
        account.uuid,
        JSON.stringify(account),
        Date.parse(account.created_at),
      ),
    );
    return taken.length ? { taken } : { created: account };
  }

  async find(key: AccountKey): Promise<Account | undefined> {
    if ('uuid' in key) return this.byUuid(key.uuid);
    const index = 'username' in key ? BY_USERNAME + key.username.toLowerCase() : BY_EMAIL + key.email.toLowerCase();
    const json = await this.call(() => this.redis.accountFindBy(index));
    return json ? (JSON.parse(json) as Account) : undefined;
  }

  async delete(uuid: string): Promise<boolean> {
    const account = await this.fetch(uuid);
    if (!account) return false;
    const deleted = await this.call(() =>
      this.redis.accountDelete(
        BY_UUID + uuid,
        BY_USERNAME + account.username.toLowerCase(),
        BY_EMAIL + account.email.toLowerCase(),
        CREATED,
        CHANGES,
        uuid,
      ),
    );
    this.remembered.delete(uuid);
    return deleted === 1;
  }

  async update(uuid: string, changes: AccountChanges): Promise<Account | undefined> {
    const account = await this.fetch(uuid);
    if (!account) return undefined;
    const updated = {
      ...account,
      ...changes,
      updated_at: changes.role ? new Date().toISOString() : account.updated_at,
    };
    const done = await this.call(() =>
      this.redis.accountUpdate(BY_UUID + uuid, CHANGES, uuid, JSON.stringify(updated)),
    );
    this.remembered.delete(uuid);
    return done === 1 ? updated : undefined;
  }

  async list(): Promise<Account[]> {
    const uuids = await this.call(() => this.redis.zrange(CREATED, 0, -1));
    if (uuids.length === 0) return [];
    const records = await this.call(() => this.redis.mget(uuids.map((uuid) => BY_UUID + uuid)));
    return records.filter((json): json is string => json !== null).map((json) => JSON.parse(json) as Account);
  }

  /** Every lookup by username or email already reads Redis itself. */
  async refresh(): Promise<void> {}

  close(): void {
    this.subscriber.disconnect();
    this.redis.disconnect();
  }

  recall(uuid: string): { account: Account | undefined } | undefined {
    const known = this.remembered.get(uuid);
    return known && Date.now() - known.at < REMEMBER_MS ? known : undefined;
  }

  /** The account by uuid, from memory when known for less than REMEMBER_MS. */
  private async byUuid(uuid: string): Promise<Account | undefined> {
    const recalled = this.recall(uuid);
    if (recalled) return recalled.account;
    const known = this.remembered.get(uuid);
    try {
      const account = await this.fetch(uuid);
      if (this.remembered.size >= 10_000) this.remembered.clear();
      this.remembered.set(uuid, { account, at: Date.now() });
      return account;
    } catch (error) {
      // Redis is away: what this instance last knew is better than refusing a read.
      if (known) return known.account;
      throw error;
    }
  }

  private async fetch(uuid: string): Promise<Account | undefined> {
    const json = await this.call(() => this.redis.get(BY_UUID + uuid));
    return json ? (JSON.parse(json) as Account) : undefined;
  }

  private async call<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      // Redis refusing writes it cannot persist (its disk full: MISCONF) or hold (OOM, a replica: READONLY).
      const refusal = /^(MISCONF|READONLY|OOM|NOREPLICAS)\b/.exec((error as Error).message)?.[1];
      if (refusal) throw new AccountsNotSaved('Redis', (error as Error).message);
      throw new AccountsUnavailable(error as Error);
    }
  }
}
