import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's chromium (packages `chromium` and `chromium-driver`; .ci/run installs them), or the one CHROMIUM_PATH names. */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Headless, and quiet: nothing of the browser's own reaches the network. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];

/**
 * Headless Chromium with a fresh profile in `dir` (a first visit: no worker, no cache), for
 * the browser tests and the static site's benchmark.
 *
 * @example
 * const context = await launchChromium(await mkdtemp(join(tmpdir(), 'profile-')));
 */
export function launchChromium(dir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 900 },
  });
}
