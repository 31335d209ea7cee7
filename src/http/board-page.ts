import { fileURLToPath } from 'node:url';
import type { CachedResponse } from '../served/cached-response.ts';
import { countsIn, type RouteTable } from './routing.ts';
import { send } from './send.ts';
import { PAGE_HEADERS, staticFile } from './static-page.ts';
import { HttpError } from '../lib/http-error.ts';

/** The board's files: in src/http/board/, and beside the bundle in dist/board/ (scripts/build.mjs copies them). */
const OWN = fileURLToPath(new URL('./board/', import.meta.url));

const FILES: Readonly<Record<string, string>> = {
  'board.js': 'text/javascript; charset=utf-8',
  'board.css': 'text/css; charset=utf-8',
};

/**
 * The teacher's board at `/classroom` (classroom mode): a page an ADMIN signs in on, showing each
 * student's sandbox writes, last write and last reset, and the class's writes per minute, live
 * from the change feed. Its files are the service's own (no CDN), read on first use.
 *
 * @example
 * boardRoutes(routes, 'public, max-age=300');
 */
export function boardRoutes(router: RouteTable, cacheControl: string): void {
  let page: CachedResponse | undefined;
  const files = new Map<string, CachedResponse>();
  const free = countsIn('free');
  router.get('/classroom', free, (ctx) => {
    page ??= staticFile(OWN, 'index.html', { 'Content-Type': 'text/html; charset=utf-8', ...PAGE_HEADERS });
    send(ctx, page, cacheControl);
  });
  router.get('/classroom/:file', free, (ctx) => {
    const name = String(ctx.params.file);
    const type = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
    if (!type) throw new HttpError(404, `The board has no file '${name}'; it has ${Object.keys(FILES).join(', ')}`);
    let file = files.get(name);
    if (!file) files.set(name, (file = staticFile(OWN, name, { 'Content-Type': type })));
    send(ctx, file, cacheControl);
  });
}
