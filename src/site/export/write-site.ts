import { existsSync, readdirSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { MANIFEST_PATH } from '../manifest.ts';

/**
 * Writes a built site into `out`, replacing a previous export there. A folder that holds
 * anything else is refused, naming it: an export never deletes what it did not write.
 *
 * @example
 * await writeSite('site', files); // 1,204 files under site/
 */
export async function writeSite(out: string, files: ReadonlyMap<string, Buffer>): Promise<void> {
  if (existsSync(out) && readdirSync(out).length > 0) {
    if (!existsSync(join(out, MANIFEST_PATH)))
      throw new Error(
        `${out} is not empty and holds no earlier export (no ${MANIFEST_PATH}): give an empty or new folder`,
      );
    await rm(out, { recursive: true });
  }
  const folders = new Set([...files.keys()].map((file) => dirname(join(out, file))));
  for (const folder of folders) await mkdir(folder, { recursive: true });
  for (const [file, body] of files) await writeFile(join(out, file), body);
}
