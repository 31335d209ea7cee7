import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const FIXTURES = new URL('../fixtures/', import.meta.url).pathname;

/** Options a problem fixture may carry in `options.json`. */
export interface FixtureOptions {
  defaultLanguage?: string;
  /** Base files to delete from the copy. */
  remove?: string[];
}

/**
 * A temporary data directory: `fixtures/base` with the files of `fixtures/<kind>/<name>`
 * laid over it (warnings also over `fixtures/series`, a season of two episodes). Keeps each
 * fixture down to the files that differ.
 */
export async function problemFixture(
  name: string,
  kind: 'problems' | 'warnings' = 'problems',
): Promise<{ dir: string; options: FixtureOptions }> {
  const dir = await mkdtemp(join(tmpdir(), `catalog-${name}-`));
  await cp(join(FIXTURES, 'base'), dir, { recursive: true });
  if (kind === 'warnings') await cp(join(FIXTURES, 'series'), dir, { recursive: true });
  await cp(join(FIXTURES, kind, name), dir, { recursive: true });
  let options: FixtureOptions = {};
  try {
    options = JSON.parse(await readFile(join(dir, 'options.json'), 'utf8')) as FixtureOptions;
  } catch {
    // no options.json: plain overlay
  }
  for (const file of ['options.json', 'expected.txt', ...(options.remove ?? [])])
    await rm(join(dir, file), { force: true });
  return { dir, options };
}
