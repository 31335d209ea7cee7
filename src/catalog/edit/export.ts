import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Catalog } from '../catalog.ts';
import { canonicalText } from '../canonical.ts';
import { family as familyOf } from '../families.ts';
import { describeChange } from './describe.ts';
import { Draft, type Row, type RowChange } from './draft.ts';

/** What exporting the overlay would write: each data file it changes, and a line per changed row. */
export interface ExportPlan {
  /** Data file (relative to the data folder) → its new content, in canonical form. */
  texts: Map<string, string>;
  lines: string[];
}

/**
 * `rows` with `changed` (key → row, null: removed) made: a changed row keeps its place,
 * a removed one goes, a new one follows the others, as the served catalog orders them.
 */
function foldRows(rows: readonly Row[], changed: ReadonlyMap<string, Row | null>, keyOf: (row: Row) => string): Row[] {
  const seen = new Set<string>();
  const folded: Row[] = [];
  for (const row of rows) {
    const key = keyOf(row);
    seen.add(key);
    const next = changed.has(key) ? changed.get(key) : row;
    if (next) folded.push(next);
  }
  for (const [key, row] of changed) if (row && !seen.has(key)) folded.push(row);
  return folded;
}

async function readRows(dir: string, file: string): Promise<Row[]> {
  const text = await readFile(join(dir, file), 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '[]';
    throw error;
  });
  return JSON.parse(text) as Row[];
}

/**
 * The data files of `dir` with the overlay's net `changes` over `base` (the catalog loaded
 * from `dir`) folded in, in the canonical form `npm run format-data` writes, so the result
 * is reviewed and committed as an ordinary diff. Restarting on them with an empty overlay
 * serves what the overlay served.
 *
 * @example
 * const { changes } = replayWrites(base, await overlay.since(0), 'export');
 * const plan = await planExport('data', base, changes); // plan.texts.get('episodes.json')
 */
export async function planExport(dir: string, base: Catalog, changes: readonly RowChange[]): Promise<ExportPlan> {
  const byFile = new Map<string, { changed: Map<string, Row | null>; keyOf: (row: Row) => string }>();
  const lines: string[] = [];
  const draft = new Draft(base);
  for (const change of changes) {
    const family = familyOf(change.family);
    const translated = change.language !== undefined;
    const file = translated ? family.translation!.file : family.file;
    const parentKey = family.translation?.parentKey ?? '';
    const keyOf = translated
      ? (row: Row) => `${String(row[parentKey])} ${String(row.language)}`
      : (row: Row) => String(row.uuid);
    const entry = byFile.get(file) ?? { changed: new Map<string, Row | null>(), keyOf };
    byFile.set(file, entry);
    entry.changed.set(translated ? `${change.uuid} ${change.language}` : change.uuid, change.after);
    const previous = translated
      ? draft.translation(change.family, change.uuid, change.language!)
      : draft.record(change.family, change.uuid);
    lines.push(`${file}: ${describeChange(change, previous)}`);
  }
  const texts = new Map<string, string>();
  for (const [file, { changed, keyOf }] of byFile)
    texts.set(file, canonicalText(file, foldRows(await readRows(dir, file), changed, keyOf)));
  // Grouped by file (the sort is stable), in the order the writes made them.
  return { texts, lines: lines.sort((a, b) => a.slice(0, a.indexOf(':')).localeCompare(b.slice(0, b.indexOf(':')))) };
}
