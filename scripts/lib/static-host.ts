import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';

/** Types by extension, as GitHub Pages sends them; a file without a known one is octet-stream. */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/** A static host that knows nothing of the API, and what it was asked. */
export interface StaticHost {
  url: string;
  /** Paths asked, query strings included, in order. */
  asked: string[];
  close(): Promise<void>;
}

/**
 * A static file server behaving as GitHub Pages does: a path maps to a file (its query
 * ignored), `/dir` redirects to `/dir/` (the query kept), a folder serves only its `index.html`, a type comes from
 * the extension alone (octet-stream without one), every answer has `Access-Control-Allow-Origin: *`
 * and `Cache-Control: max-age=600`, paths starting with `_` are dropped without `.nojekyll`, a
 * miss serves `404.html`, and anything but GET and HEAD is a 405.
 *
 * @example
 * const host = await staticHost('/tmp/site'); // host.url: 'http://127.0.0.1:…'
 */
export async function staticHost(root: string, port = 0): Promise<StaticHost> {
  const asked: string[] = [];
  const server: Server = createServer((req, res) => {
    asked.push(req.url ?? '');
    const common = { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'max-age=600' };
    const send = (status: number, type: string, body: Buffer | string, extra: Record<string, string> = {}) =>
      res.writeHead(status, { ...common, 'Content-Type': type, ...extra }).end(req.method === 'HEAD' ? '' : body);
    const missing = () => {
      const page = join(root, '404.html');
      send(404, 'text/html; charset=utf-8', existsSync(page) ? readFileSync(page) : 'Not Found');
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'text/html', '405 Not Allowed');
    const pathname = (req.url ?? '/').split('?')[0]!;
    let path: string;
    try {
      path = decodeURIComponent(pathname);
    } catch {
      return missing();
    }
    const file = normalize(join(root, path));
    if (!file.startsWith(root)) return missing();
    if (/\/_/.test(path) && !existsSync(join(root, '.nojekyll'))) return missing();
    if (!existsSync(file)) return missing();
    if (statSync(file).isDirectory()) {
      const query = (req.url ?? '').slice(pathname.length);
      if (!pathname.endsWith('/')) return send(301, 'text/html', '', { Location: `${pathname}/${query}` });
      const index = join(file, 'index.html');
      return existsSync(index) ? send(200, TYPES['.html']!, readFileSync(index)) : missing();
    }
    send(200, TYPES[extname(file)] ?? 'application/octet-stream', readFileSync(file));
  });
  await new Promise<void>((ready) => server.listen(port, '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
