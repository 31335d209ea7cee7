import { constants, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import type { WriteSome } from './whole-file.ts';

const writeSome: WriteSome = async (handle, buffer, offset, length) =>
  (await handle.write(buffer, offset, length)).bytesWritten;

/**
 * Appends `data` to the existing `file`, which holds `size` bytes, completely or not at all:
 * every byte written (a filling disk makes write(2) return short counts before it fails), then
 * flushed, before it resolves with the file's stats. On any failure the file is cut back to
 * `size` and flushed again before the error (ENOSPC, EDQUOT, EIO, EROFS…) is thrown, so it
 * holds what it held; if even that fails the error carries `truncated: false`, and the bytes
 * after `size` are an incomplete last line for the reader to drop.
 *
 * @example
 * const stats = await appendWhole('var/catalog-overlay.json', '{"seq":7,…}\n', 8_192);
 */
export async function appendWhole(
  file: string,
  data: string,
  size: number,
  write: WriteSome = writeSome,
): Promise<Stats> {
  const bytes = Buffer.from(data);
  // O_APPEND without O_CREAT: a file removed meanwhile is an error, never a new file without its header.
  const handle = await open(file, constants.O_WRONLY | constants.O_APPEND);
  try {
    try {
      for (let offset = 0; offset < bytes.length;) {
        const written = await write(handle, bytes, offset, bytes.length - offset);
        if (written <= 0)
          throw Object.assign(new Error(`ENOSPC: no byte written at ${offset} of ${bytes.length}, ${file}`), {
            code: 'ENOSPC',
            path: file,
          });
        offset += written;
      }
      await handle.sync();
    } catch (error) {
      const truncated = await handle
        .truncate(size)
        .then(() => handle.sync())
        .then(
          () => true,
          () => false,
        );
      throw Object.assign(error as Error, { truncated });
    }
    return await handle.stat();
  } finally {
    await handle.close();
  }
}
