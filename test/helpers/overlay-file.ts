import { readFile } from 'node:fs/promises';
import type { OverlayWrite } from '../../src/catalog-writes/store.ts';

/** The catalog overlay file as the tests read it: its header's `exported`, then one write a line. */
export async function readOverlayFile<Write = Record<string, unknown>>(
  file: string,
): Promise<{ writes: Write[]; exported: number }> {
  const [header, ...lines] = (await readFile(file, 'utf8')).split('\n');
  if (lines.pop() !== '') throw new Error(`${file} does not end with a complete line`);
  return {
    writes: lines.map((line) => JSON.parse(line) as Write),
    exported: (JSON.parse(header!) as { exported: number }).exported,
  };
}

/** An append's answer without its marks: `{ seq }`, or `{ behind }` as it is. */
export const seqOf = (appended: { seq: number } | { behind: OverlayWrite[] }) =>
  'seq' in appended ? { seq: appended.seq } : appended;
