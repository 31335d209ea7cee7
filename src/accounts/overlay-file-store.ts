import { existsSync } from 'node:fs';
import { Low } from 'lowdb';
import { removeLeftovers } from '../lib/whole-file.ts';
import { compileValidator } from '../lib/validators.ts';
import { makeParentFolders } from './private-file.ts';
import { OverlayNotSaved, type OverlayStore, type OverlayWrite } from './overlay-store.ts';
import { StoreFileError, SyncedJsonFile } from './synced-json-file.ts';
import { WriteQueue } from './write-queue.ts';

interface OverlayData {
  writes: OverlayWrite[];
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
  },
  required: ['writes'],
});

/**
 * The catalog overlay in one lowdb JSON file beside the accounts file, for one instance.
 * Each append writes the whole file the way the accounts file is written (whole or not at
 * all, flushed, the previous version kept as `<file>.previous`) before it resolves.
 *
 * @example
 * const overlay = await JsonFileOverlayStore.open('var/catalog-overlay.json', log.warn);
 */
export class JsonFileOverlayStore implements OverlayStore {
  readonly #db: Low<OverlayData>;
  readonly #queue = new WriteQueue();

  private constructor(readonly file: string) {
    this.#db = new Low(new SyncedJsonFile<OverlayData>(file), { writes: [] });
  }

  /** Opens `file` (absent: an empty overlay); a file that is not an overlay refuses the boot, untouched. */
  static async open(file: string, warn: (line: string) => void = () => {}): Promise<JsonFileOverlayStore> {
    await makeParentFolders(file);
    const leftovers = await removeLeftovers(file);
    if (leftovers.length) warn(`removed what an interrupted write of ${file} left: ${leftovers.join(', ')}`);
    const store = new JsonFileOverlayStore(file);
    try {
      await store.#db.read();
    } catch (error) {
      const previous = `${file}.previous`;
      if (!(error instanceof StoreFileError) || !existsSync(previous)) throw error;
      throw new StoreFileError(file, `${error.message.slice(file.length + 2)}. The version before the last write is kept: restore it with  cp ${previous} ${file}`);
    }
    if (!validate(store.#db.data)) {
      const first = validate.errors![0]!;
      throw new StoreFileError(file, `not a catalog overlay (${first.instancePath || 'top level'}: ${first.message}); move it away to start with no changes`);
    }
    return store;
  }

  async since(seq: number): Promise<OverlayWrite[]> {
    return this.#db.data.writes.filter((write) => write.seq > seq);
  }

  append(write: Omit<OverlayWrite, 'seq'>, after: number): Promise<{ seq: number } | { behind: OverlayWrite[] }> {
    return this.#queue.run(async () => {
      const writes = this.#db.data.writes;
      const last = writes.at(-1)?.seq ?? 0;
      if (last !== after) return { behind: writes.filter((w) => w.seq > after) };
      const next = { ...write, seq: last + 1 };
      await this.#save([...writes, next]);
      return { seq: next.seq };
    });
  }

  clear(): Promise<void> {
    return this.#queue.run(() => this.#save([]));
  }

  onChange(): void {}

  close(): void {}

  async #save(writes: OverlayWrite[]): Promise<void> {
    const kept = this.#db.data;
    this.#db.data = { writes };
    try {
      await this.#db.write();
    } catch (error) {
      this.#db.data = kept;
      throw new OverlayNotSaved(this.file, (error as NodeJS.ErrnoException).code ?? (error as Error).message);
    }
  }
}
