import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { tempDir } from './http.ts';

const run = promisify(execFile);

/** A tmpfs of `size` mounted on a fresh folder (CI runs as root); unmounted by the returned function. */
export async function smallDisk(size: string): Promise<{ dir: string; unmount: () => Promise<void> }> {
  const dir = await tempDir();
  await run('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]).catch((error: Error) => {
    throw new Error(`this test mounts a small tmpfs and needs root: ${error.message}`);
  });
  return { dir, unmount: () => run('umount', [dir]).then(() => undefined) };
}
