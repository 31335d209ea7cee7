import { readFile } from 'node:fs/promises';
import { appendWhole } from '../lib/append-file.ts';
import { writeWholeFile } from '../lib/whole-file.ts';
import { fileVersion, underLock, versionOf } from '../lib/file-lock.ts';
import { logLine, logText, readOverlay, type OverlayContent } from './write-log.ts';
import { OverlayNotSaved, type Appended, type OverlayStore, type OverlayWrite, type SandboxStore } from './store.ts';
import { prepareStoreFile } from '../lib/private-file.ts';
import { StoreFileError } from '../lib/synced-json-file.ts';
import { WriteQueue } from '../lib/write-queue.ts';

/** The number of the last write the overlay ever took. */
const lastOf = ({ writes, exported, last = 0 }: OverlayContent) => Math.max(writes.at(-1)?.seq ?? 0, exported, last);

/**
 * The catalog overlay in one file beside the accounts file, for one instance: a log, one JSON
 * line a write after a header line (`write-log.ts`). An append writes its lines (one a write)
 * and flushes them once before it resolves, so a write costs the same however many are kept; on a failure (a full
 * disk) the file is cut back to what it held. The file is rewritten whole (flushed, renamed
 * over it, the version it replaces kept as `<file>.previous`) only when export folds writes
 * into data/, or when it is not a clean log: the former whole-JSON format, or a torn last line.
 * The server and `npm run catalog` may share the file: each change holds its lock file and
 * starts from what is on disk.
 *
 * @example
 * const overlay = await LogFileOverlayStore.open('var/catalog-overlay.json', log.warn);
 */
export class LogFileOverlayStore implements OverlayStore, SandboxStore {
  readonly #queue = new WriteQueue();
  #content: OverlayContent = { writes: [], exported: 0 };
  /** Whether the file on disk is a log ending in a complete line, ready for an append. */
  #appendable = false;
  /** Bytes of the file as last read or written. */
  #size = 0;
  #version = 'not read';

  private constructor(
    readonly file: string,
    private readonly warn: (line: string) => void,
  ) {}

  /** Opens `file` (absent: an empty overlay); a file that is not an overlay refuses the boot, untouched. */
  static async open(file: string, warn: (line: string) => void = () => {}): Promise<LogFileOverlayStore> {
    await prepareStoreFile(file, warn);
    const store = new LogFileOverlayStore(file, warn);
    await underLock(file, warn, () => store.#reload());
    return store;
  }

  /**
   * Read from the file as it is now: an export may have emptied it since (`npm run dev` replays it after each edit of
   * data/).
   */
  since(seq: number): Promise<OverlayWrite[]> {
    return this.#onDisk(async () => this.#after(seq));
  }

  end(): Promise<number> {
    return this.#onDisk(async () => lastOf(this.#content));
  }

  append(write: Omit<OverlayWrite, 'seq'>, after: number): Promise<Appended | { behind: OverlayWrite[] }> {
    return this.appendAll([write], after);
  }

  appendAll(writes: Omit<OverlayWrite, 'seq'>[], after: number): Promise<Appended | { behind: OverlayWrite[] }> {
    return this.#onDisk(async () => {
      const last = lastOf(this.#content);
      if (last !== after) return { behind: this.#after(after) };
      const numbered = writes.map((write, at) => ({ ...write, seq: last + 1 + at }));
      // The version read under the lock: the file as it was just before this append.
      const before = this.#version;
      if (this.#appendable) await this.#appendLines(numbered);
      else await this.#rewrite({ ...this.#content, writes: [...this.#content.writes, ...numbered] });
      return { seq: last + numbered.length, mark: { before, after: this.#version } };
    });
  }

  fold(through: number): Promise<void> {
    return this.#onDisk(() => {
      const { writes, exported } = this.#content;
      return this.#rewrite({
        ...this.#content,
        writes: writes.filter((w) => w.seq > through),
        exported: Math.max(through, exported),
      });
    });
  }

  /**
   * Forgets every write `leave` accepts (a sandbox reset), rewriting the file whole. The
   * numbering goes on from the last write taken, dropped or not (the header's `last` says it
   * when no kept write does): a writer that appends after that number is not behind.
   */
  drop(leave: (write: OverlayWrite) => boolean): Promise<void> {
    return this.#onDisk(() =>
      this.#rewrite({
        writes: this.#content.writes.filter((write) => !leave(write)),
        exported: this.#content.exported,
        last: lastOf(this.#content),
      }),
    );
  }

  /** The file's version (inode, size, times): an append or a rewrite by any process changes it. */
  async mark(): Promise<string> {
    return fileVersion(this.file);
  }

  onChange(): void {}

  close(): void {}

  #after(seq: number): OverlayWrite[] {
    return this.#content.writes.filter((write) => write.seq > seq);
  }

  /** Runs `change` on the overlay as it is on disk, in the queue and under the lock file. */
  #onDisk<T>(change: () => Promise<T>): Promise<T> {
    return this.#queue.run(() =>
      underLock(this.file, this.warn, async () => {
        await this.#reload();
        return change();
      }),
    );
  }

  /** Reads the file again if anything but this store changed it (another process, a hand edit). */
  async #reload(): Promise<void> {
    const version = fileVersion(this.file);
    if (version === this.#version) return;
    const text = await readFile(this.file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw new StoreFileError(this.file, `cannot be read (${error.code ?? error.message})`);
    });
    if (text === undefined) {
      this.#content = { writes: [], exported: 0 };
      this.#appendable = false;
    } else {
      // A broken file throws here and leaves the last good overlay in place.
      const read = readOverlay(text);
      if (typeof read === 'string') throw new StoreFileError(this.file, read);
      if (read.format === 'whole' && this.#version === 'not read') {
        this.warn(
          `${this.file} is in the former format (one JSON document): read as it is; the next write rewrites it ` +
            `as a log, one write a line, the old file kept as ${this.file}.previous`,
        );
      }
      if (read.torn) {
        this.warn(
          `${this.file}: line ${read.torn.line} (${read.torn.bytes} bytes) is an append that never completed, so ` +
            `never acknowledged: left out; the next write rewrites the file without it`,
        );
      }
      const { writes, exported, last } = read;
      this.#content = { writes, exported, ...(last ? { last } : {}) };
      this.#appendable = read.format === 'log' && !read.torn;
      this.#size = read.cleanBytes;
    }
    this.#version = version;
  }

  /** Appends `writes` as lines with one flush: all of them, or the file cut back to what it held. */
  async #appendLines(writes: OverlayWrite[]): Promise<void> {
    try {
      const stats = await appendWhole(this.file, writes.map(logLine).join(''), this.#size);
      this.#size = stats.size;
      this.#version = versionOf(stats);
      this.#content.writes.push(...writes);
    } catch (error) {
      const left =
        (error as { truncated?: boolean }).truncated === false
          ? 'an incomplete last line is left, which the next write drops'
          : 'the file is unchanged';
      throw this.#notSaved(error, left);
    }
  }

  /** Writes `content` as the whole file, the version it replaces kept as `<file>.previous`. */
  async #rewrite(content: OverlayContent): Promise<void> {
    const text = logText(content);
    try {
      await writeWholeFile(this.file, text, { mode: 0o600, keepPrevious: true });
      this.#version = fileVersion(this.file);
    } catch (error) {
      throw this.#notSaved(error, 'the file is unchanged');
    }
    this.#content = content;
    this.#size = Buffer.byteLength(text);
    this.#appendable = true;
  }

  #notSaved(error: unknown, left: string): OverlayNotSaved {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    this.warn(`catalog change not saved: writing ${this.file} failed (${reason}); ${left}`);
    return new OverlayNotSaved(this.file, reason);
  }
}
