import { closeSync, constants, fdatasync, fstatSync, ftruncateSync, openSync, writeSync, type Stats } from 'node:fs';
import { promisify } from 'node:util';

const flush = promisify(fdatasync);

/**
 * Appends `data` to the existing `file`, which holds `size` bytes, completely or not at all:
 * every byte written (a filling disk makes write(2) return short counts before it fails), then
 * flushed, before it resolves with the file's stats. On any failure the file is cut back to
 * `size` and flushed again before the error (ENOSPC, EDQUOT, EIO, EROFS…) is thrown, so it
 * holds what it held; if even that fails the error carries `truncated: false`, and the bytes
 * after `size` are an incomplete last line for the reader to drop.
 *
 * Only the flush waits in libuv's thread pool: opening, writing a few hundred bytes to the page
 * cache, reading the stats and closing take microseconds, less than the two thread wake-ups each
 * would cost asynchronously (see `underLock`).
 *
 * @example
 * const stats = await appendWhole('var/catalog-overlay.json', '{"seq":7,…}\n', 8_192);
 */
export async function appendWhole(file: string, data: string, size: number): Promise<Stats> {
  const bytes = Buffer.from(data);
  // O_APPEND without O_CREAT: a file removed meanwhile is an error, never a new file without its header.
  const fd = openSync(file, constants.O_WRONLY | constants.O_APPEND);
  try {
    try {
      for (let offset = 0; offset < bytes.length;) {
        const written = writeSync(fd, bytes, offset, bytes.length - offset);
        if (written <= 0)
          throw Object.assign(new Error(`ENOSPC: no byte written at ${offset} of ${bytes.length}, ${file}`), {
            code: 'ENOSPC',
            path: file,
          });
        offset += written;
      }
      await flush(fd);
    } catch (error) {
      const truncated = await cutBack(fd, size);
      throw Object.assign(error as Error, { truncated });
    }
    return fstatSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Cuts the file open as `fd` back to `size` bytes and flushes it; whether that worked. */
async function cutBack(fd: number, size: number): Promise<boolean> {
  try {
    ftruncateSync(fd, size);
    await flush(fd);
    return true;
  } catch {
    return false;
  }
}
