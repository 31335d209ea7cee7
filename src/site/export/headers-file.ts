import { PICTURE_CACHE_CONTROL, PICTURE_CSP } from '../../reads/pictures.ts';

/**
 * `_headers` for the hosts that read one (Cloudflare Pages, Netlify): what the server sends
 * and a folder's `index.html` would otherwise lose. API files are JSON whatever their name,
 * every file may be read from any origin, pictures keep their policy, and the worker and its
 * manifest are revalidated so a new export reaches browsers. Eight rules of the 100 allowed.
 *
 * @example
 * headersFile('/repo/', 300); // '/repo/*\n  Access-Control-Allow-Origin: *\n…'
 */
export function headersFile(base: string, cacheSeconds: number): string {
  const rules: [string, Record<string, string>][] = [
    [`${base}*`, { 'Access-Control-Allow-Origin': '*', 'X-Content-Type-Options': 'nosniff' }],
    [`${base}api/v1/*`, { 'Content-Type': 'application/json', 'Cache-Control': `public, max-age=${cacheSeconds}` }],
    [`${base}api`, { 'Content-Type': 'application/json' }],
    [`${base}api/`, { 'Content-Type': 'application/json' }],
    [`${base}api/ping/`, { 'Content-Type': 'text/plain; charset=utf-8' }],
    [`${base}api/graphql/schema.graphql`, { 'Content-Type': 'text/plain; charset=utf-8' }],
    [`${base}images/*`, { 'Content-Security-Policy': PICTURE_CSP, 'Cache-Control': PICTURE_CACHE_CONTROL }],
    [`${base}sw.js`, { 'Cache-Control': 'no-cache' }],
    [`${base}site/*`, { 'Cache-Control': 'no-cache' }],
  ];
  return rules
    .map(([path, headers]) =>
      [path, ...Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`)].join('\n'),
    )
    .join('\n')
    .concat('\n');
}
