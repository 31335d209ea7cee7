import { Low } from 'lowdb';
import { compileValidator } from '../lib/validators.ts';
import { fileVersion, underLock } from './file-lock.ts';
import { prepareStoreFile, withRestoreHint } from './private-file.ts';
import { OverlayNotSaved, type OverlayStore, type OverlayWrite } from './overlay-store.ts';
import { StoreFileError, SyncedJsonFile } from './synced-json-file.ts';
import { WriteQueue } from './write-queue.ts';

interface OverlayData {
  writes: OverlayWrite[];
  /** The last write `catalog export` folded into data/: numbering goes on after it. */
  exported?: number;
}

const validate = compileValidator<OverlayData>({
  type: 'object',
  properties: {
    writes: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          seq: { type: 'integer', minimum: 1 },
          at: { type: 'string' },
          account: { type: 'object', properties: { uuid: { type: 'string' }, username: { type: 'string' } }, required: ['uuid', 'username'] },
          request: { type: 'string' },
          changes: {
            type: 'array',
            items: {
              type: 'object',
              properties: { family: { type: 'string' }, uuid: { type: 'string' }, language: { type: 'string' }, before: { type: ['string', 'null'] }, after: { type: ['object', 'null'] } },
              required: ['family', 'uuid', 'before', 'after'],
            },
          },
        },
        required: ['seq', 'at', 'account', 'request', 'changes'],
      },
    },
    exported: { type: 'integer', minimum: 1 },
  },
  required: ['writes'],
});

/** The number of the last write the overlay ever took. */
const lastOf = ({ writes, exported }: OverlayData) => writes.at(-1)?.seq ?? exported ?? 0;

/**
 * The catalog overlay in one lowdb JSON file beside the accounts file, for one instance.
 * Each append writes the whole file the way the accounts file is written (whole or not at
 * all, flushed, the previous version kept as `<file>.previous`) before it resolves. The
 * server and `npm run catalog -- export` may share the file: each change holds its lock file
 * and starts from what is on disk.
 *
 * @example
 * const overlay = await JsonFileOverlayStore.open('var/catalog-overlay.json', log.warn);
 */
export class JsonFileOverlayStore implements OverlayStore {
  readonly #db: Low<OverlayData>;
  readonly #queue = new WriteQueue();
  #version = 'not read';

  private constructor(
    readonly file: string,
    private readonly warn: (line: string) => void,
  ) {
    this.#db = new Low(new SyncedJsonFile<OverlayData>(file), { writes: [] });
  }

  /** Opens `file` (absent: an empty overlay); a file that is not an overlay refuses the boot, untouched. */
  static async open(file: string, warn: (line: string) => void = () => {}): Promise<JsonFileOverlayStore> {
    await prepareStoreFile(file, warn);
    const store = new JsonFileOverlayStore(file, warn);
    await store.#reload().catch((error: unknown) => {
      throw withRestoreHint(file, error);
    });
    return store;
  }

  async since(seq: number): Promise<OverlayWrite[]> {
    return this.#db.data.writes.filter((write) => write.seq > seq);
  }

  async end(): Promise<number> {
    return lastOf(this.#db.data);
  }

  append(write: Omit<OverlayWrite, 'seq'>, after: number): Promise<{ seq: number } | { behind: OverlayWrite[] }> {
    return this.#change(async (data) => {
      const { writes, exported } = data;
      const last = lastOf(data);
      if (last !== after) return { behind: writes.filter((w) => w.seq > after) };
      const next = { ...write, seq: last + 1 };
      await this.#save({ writes: [...writes, next], ...(exported ? { exported } : {}) });
      return { seq: next.seq };
    });
  }

  fold(through: number): Promise<void> {
    return this.#change(({ writes, exported }) => this.#save({ writes: writes.filter((w) => w.seq > through), exported: Math.max(through, exported ?? 0) }));
  }

  onChange(): void {}

  close(): void {}

  /** Runs `change` on the file's content as it is on disk, in the queue and under the lock file. */
  #change<T>(change: (data: OverlayData) => Promise<T>): Promise<T> {
    return this.#queue.run(() =>
      underLock(this.file, this.warn, async () => {
        await this.#reload();
        return change(this.#db.data);
      }),
    );
  }

  async #reload(): Promise<void> {
    const version = await fileVersion(this.file);
    if (version === this.#version) return;
    // Read beside the kept content: a file broken by hand leaves the last good overlay in place.
    const data = (await this.#db.adapter.read()) ?? { writes: [] };
    if (!validate(data)) {
      const first = validate.errors![0]!;
      throw new StoreFileError(this.file, `not a catalog overlay (${first.instancePath || 'top level'}: ${first.message}); move it away to start with no changes`);
    }
    this.#db.data = data;
    this.#version = version;
  }

  async #save(data: OverlayData): Promise<void> {
    const kept = this.#db.data;
    this.#db.data = data;
    try {
      await this.#db.write();
      this.#version = await fileVersion(this.file);
    } catch (error) {
      this.#db.data = kept;
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      this.warn(`catalog change not saved: writing ${this.file} failed (${reason}); the file is unchanged`);
      throw new OverlayNotSaved(this.file, reason);
    }
  }
}
