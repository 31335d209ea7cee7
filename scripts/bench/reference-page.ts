import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from '../lib/chromium.ts';
import { compiledServer, startChild } from './child.ts';
import { median } from './load.ts';
import { freePort } from './ports.ts';

/** The reference page's load times: medians of `loads` first visits, in milliseconds. */
export interface ReferencePageRow {
  loads: number;
  /** Navigation to the first operation painted (the page's own index, drawn before Swagger UI). */
  firstOperation: number;
  /** Navigation to Swagger UI's first operation: "Try it out" and Authorize usable. */
  interactive: number;
  /** Every load's [first operation, interactive]. */
  each: [number, number][];
}

/**
 * When the frame showing the index (every operation) had been drawn, in ms from navigation: the
 * page's `reference-index-shown` mark (src/docs/page/reference.js). Read from the page rather than
 * polled: Swagger UI's script holds the page's thread right after, and a poll would only see
 * the index then.
 */
async function indexShown(page: Page): Promise<number> {
  const [mark] = await page.evaluate(() =>
    performance.getEntriesByName('reference-index-shown').map((entry) => entry.startTime),
  );
  if (mark === undefined) throw new Error("the page made no 'reference-index-shown' mark");
  return mark;
}

/**
 * Loads `/api/docs` of the compiled server `loads` times in headless Chromium, each with a
 * fresh profile (a first visit: nothing cached), and times the first operation shown and
 * Swagger UI's.
 *
 * @example
 * const row = await measureReferencePage({ dataDir: './data', loads: 5, progress: console.error });
 */
export async function measureReferencePage(options: {
  dataDir: string;
  loads: number;
  progress: (line: string) => void;
}): Promise<ReferencePageRow> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-reference-'));
  const port = await freePort();
  const env = {
    DATA_DIR: options.dataDir,
    ACCOUNTS_FILE: join(dir, 'accounts.json'),
    PORT: String(port),
    HOST: '127.0.0.1',
  };
  const server = await startChild(compiledServer(), env, `http://127.0.0.1:${port}/api/ping`);
  const each: [number, number][] = [];
  try {
    for (let load = 0; load < options.loads; load++) {
      const profile = await mkdtemp(join(dir, 'profile-'));
      const context = await launchChromium(profile);
      try {
        const page = context.pages()[0] ?? (await context.newPage());
        const start = performance.now();
        await page.goto(`http://127.0.0.1:${port}/api/docs`, { waitUntil: 'commit' });
        await page.locator('#reference .opblock').first().waitFor({ timeout: 60_000 });
        const interactive = performance.now() - start;
        each.push([Math.round(await indexShown(page)), Math.round(interactive)]);
        options.progress(
          `reference page load ${load + 1}: first operation ${each.at(-1)![0]} ms, Swagger UI ${each.at(-1)![1]} ms`,
        );
      } finally {
        await context.close();
      }
    }
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
  return {
    loads: options.loads,
    firstOperation: median(each.map(([first]) => first)),
    interactive: median(each.map(([, interactive]) => interactive)),
    each,
  };
}

/** The row as a Markdown table, with the target (≤ 1 s to the first operation) marked. */
export function referencePageTable(row: ReferencePageRow): string {
  const mark = row.firstOperation <= 1000 ? '✓' : '✗';
  const loads = row.each.map(([first, interactive]) => `${first} / ${interactive}`).join(', ');
  return [
    '| Reference page (`/api/docs`), first visit | median | target | each load (first operation / Swagger UI), ms |',
    '| --- | --- | --- | --- |',
    `| the first operation visible | ${row.firstOperation} ms ${mark} | ≤ 1,000 ms | ${loads} |`,
    `| Swagger UI's list drawn ("Try it out") | ${row.interactive} ms | | |`,
  ].join('\n');
}
