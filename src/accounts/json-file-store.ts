import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { Low } from 'lowdb';
import type { Account } from './account.ts';
import { accountsFileProblem, type AccountsData } from './accounts-file.ts';
import { fileVersion, underLock } from '../lib/file-lock.ts';
import { prepareStoreFile, withRestoreHint } from '../lib/private-file.ts';
import { AccountsNotSaved, type AccountChanges, type AccountKey, type AccountStore, type TakenField } from './store.ts';
import { StoreFileError, SyncedJsonFile } from '../lib/synced-json-file.ts';
import { WriteQueue } from '../lib/write-queue.ts';

/** The accounts as last read or written, indexed, with the file version they came from. */
interface Snapshot {
  accounts: readonly Account[];
  byUuid: Map<string, Account>;
  byUsername: Map<string, Account>;
  byEmail: Map<string, Account>;
  version: string;
}

function snapshot(accounts: readonly Account[], version: string): Snapshot {
  return {
    accounts,
    byUuid: new Map(accounts.map((a) => [a.uuid, a])),
    byUsername: new Map(accounts.map((a) => [a.username.toLowerCase(), a])),
    byEmail: new Map(accounts.map((a) => [a.email.toLowerCase(), a])),
    version,
  };
}

/** How often the file is checked for changes made by another process (`npm run accounts`). */
const POLL_MS = 500;

/**
 * Accounts in one lowdb JSON file, answered from memory. Writes of this process go through
 * one queue and each is answered after the file reached the disk. The server and
 * `npm run accounts` may share the file: every write holds a lock file (`<file>.lock`) and
 * starts from the file's current content, and the folder's change events (or, at the latest,
 * a timer every `POLL_MS`) tell when another process replaced the file, so lookups never
 * touch the file system (a `stat` per request would queue behind password hashes on
 * libuv's thread pool).
 *
 * @example
 * const store = await JsonFileAccountStore.open('var/accounts.json'); // StoreFileError if corrupt
 * await store.find({ username: 'Ana' });
 */
export class JsonFileAccountStore implements AccountStore {
  readonly #db: Low<AccountsData>;
  readonly #queue = new WriteQueue();
  #state = snapshot([], 'not read');
  #poll?: NodeJS.Timeout;
  #watcher?: FSWatcher;

  private constructor(
    readonly file: string,
    private readonly warn: (line: string) => void,
  ) {
    this.#db = new Low(new SyncedJsonFile<AccountsData>(file), { accounts: [] });
  }

  /**
   * Opens `file`, creating it and its folders (mode 0700) if missing and taking the group and
   * other permissions off an existing one; refuses a file or location it cannot use.
   */
  static async open(file: string, warn: (line: string) => void = () => {}): Promise<JsonFileAccountStore> {
    await prepareStoreFile(file, warn);
    const store = new JsonFileAccountStore(file, warn);
    // Reading needs no lock, so a restart after a crash is not held up by the crash's lock.
    await store.#queue
      .run(() => store.#reload())
      .catch((error: unknown) => {
        throw withRestoreHint(file, error);
      });
    if (store.#state.version === 'missing')
      await store.#change((state) => ({ result: undefined, next: state.version === 'missing' ? [] : undefined }));
    const refresh = () => void store.refresh().catch((error: Error) => warn(`accounts not reloaded: ${error.message}`));
    // The folder's events usually tell at once; the timer covers file systems without them.
    try {
      store.#watcher = watch(
        dirname(file),
        { persistent: false },
        (_event, name) => name === basename(file) && refresh(),
      );
      store.#watcher.on('error', () => store.#watcher?.close());
    } catch {
      // Watching is an optimisation: polling alone keeps the view within POLL_MS.
    }
    store.#poll = setInterval(refresh, POLL_MS);
    store.#poll.unref();
    return store;
  }

  create(account: Account): Promise<{ created: Account } | { taken: TakenField[] }> {
    return this.#change<{ created: Account } | { taken: TakenField[] }>((state) => {
      const taken: TakenField[] = [];
      if (state.byUsername.has(account.username.toLowerCase())) taken.push('username');
      if (state.byEmail.has(account.email.toLowerCase())) taken.push('email');
      return taken.length
        ? { result: { taken } }
        : { result: { created: account }, next: [...state.accounts, account] };
    });
  }

  delete(uuid: string): Promise<boolean> {
    return this.#change((state) => {
      if (!state.byUuid.has(uuid)) return { result: false };
      return { result: true, next: state.accounts.filter((a) => a.uuid !== uuid) };
    });
  }

  update(uuid: string, changes: AccountChanges): Promise<Account | undefined> {
    return this.#change((state) => {
      const found = state.byUuid.get(uuid);
      if (!found) return { result: undefined };
      const updated = { ...found, ...changes, updated_at: changes.role ? new Date().toISOString() : found.updated_at };
      return { result: updated, next: state.accounts.map((a) => (a.uuid === uuid ? updated : a)) };
    });
  }

  recall(uuid: string): { account: Account | undefined } {
    return { account: this.#state.byUuid.get(uuid) };
  }

  async find(key: AccountKey): Promise<Account | undefined> {
    const state = this.#state;
    if ('uuid' in key) return state.byUuid.get(key.uuid);
    if ('username' in key) return state.byUsername.get(key.username.toLowerCase());
    return state.byEmail.get(key.email.toLowerCase());
  }

  async list(): Promise<Account[]> {
    await this.refresh();
    return [...this.#state.accounts];
  }

  refresh(): Promise<void> {
    return this.#queue.run(() => this.#reload());
  }

  /** Stops watching the file for changes from other processes. */
  close(): void {
    clearInterval(this.#poll);
    this.#watcher?.close();
  }

  async #reload(): Promise<void> {
    // The version is taken before reading: if the file is replaced in between, the next
    // check sees a newer version and reads again, rather than trusting stale content.
    const version = fileVersion(this.file);
    if (version === this.#state.version) return;
    if (version === 'missing') {
      this.#state = snapshot([], version);
      return;
    }
    await this.#db.read();
    const problem = accountsFileProblem(this.#db.data);
    if (problem) throw new StoreFileError(this.file, problem);
    this.#state = snapshot(this.#db.data.accounts, version);
  }

  /**
   * Runs `decide` on the file's current content, in the queue and under the lock file, and
   * writes `next` when it returns one. Resolves after the write is on disk.
   */
  #change<T>(decide: (state: Snapshot) => { result: T; next?: Account[] }): Promise<T> {
    return this.#queue.run(() =>
      underLock(this.file, this.warn, async () => {
        await this.#reload();
        const { result, next } = decide(this.#state);
        if (next) {
          this.#db.data = { accounts: next };
          try {
            await this.#db.write();
          } catch (error) {
            // Nothing is acknowledged and the state stays the last one on disk.
            const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
            this.warn(`accounts not saved: writing ${this.file} failed (${reason}); the file is unchanged`);
            throw new AccountsNotSaved(this.file, reason);
          }
          this.#state = snapshot(next, fileVersion(this.file));
        }
        return result;
      }),
    );
  }
}
