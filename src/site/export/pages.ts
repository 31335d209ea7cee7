import { REFERENCE_ASSETS } from '../../docs/reference-page.ts';
import { bodyOf, type SiteGet } from './site-get.ts';

/** The site's script every page loads first (see src/site/page/register.ts). */
export const REGISTER_SCRIPT = 'register.js';

/** `text` with the site's base before every path-absolute `/api/…` and `/favicon.ico` it quotes. */
export function withBase(text: string, base: string): string {
  return base === '/' ? text : text.replace(/(["'])\/(api[/"']|favicon\.ico)/g, `$1${base}$2`);
}

/** A page of the server as a page of the site: the base in its links, and the worker's script loaded first. */
function sitePage(html: string, base: string): string {
  return withBase(html, base).replace('<head>', `<head>\n    <script src="${base}${REGISTER_SCRIPT}"></script>`);
}

/**
 * The site's pages and their files, as the server serves them: the reference page (Swagger UI,
 * also the site's home page), GraphiQL, their scripts, styles and icon, and the GraphQL schema.
 *
 * @example
 * const files = await sitePages(get, '/repo/'); // Map { 'index.html' => …, 'api/docs/index.html' => …, … }
 */
export async function sitePages(get: SiteGet, base: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const text = async (path: string, headers?: Record<string, string>) =>
    (await bodyOf(get, path, headers)).toString('utf8');
  const reference = Buffer.from(sitePage(await text('/api/docs'), base));
  files.set('index.html', reference);
  files.set('api/docs/index.html', reference);
  for (const asset of Object.keys(REFERENCE_ASSETS)) {
    const body = await bodyOf(get, `/api/docs/${asset}`);
    files.set(`api/docs/${asset}`, /\.js$/.test(asset) ? Buffer.from(withBase(body.toString('utf8'), base)) : body);
  }
  files.set('favicon.ico', await bodyOf(get, '/favicon.ico'));
  files.set('api/graphql/index.html', Buffer.from(sitePage(await text('/api/graphql', { accept: 'text/html' }), base)));
  files.set('api/graphql/graphiql.js', Buffer.from(withBase(await text('/api/graphql/graphiql.js'), base)));
  files.set('api/graphql/graphiql.css', await bodyOf(get, '/api/graphql/graphiql.css'));
  files.set('api/graphql/schema.graphql', await bodyOf(get, '/api/graphql/schema.graphql'));
  files.set('404.html', Buffer.from(notFoundPage(base)));
  return files;
}

/** The 404 page's explanation: what the site answers without its worker, and for whom. */
const NOT_FOUND_WHY =
  'This site has no file at this address. Its read API (lists, filters, search, random picks) is answered in your ' +
  'browser by its Service Worker, which needs JavaScript; other clients can read records by uuid, their ' +
  'translations and socials.';

/**
 * What a static host answers for a path it has no file for (GitHub Pages, Netlify and
 * Cloudflare Pages serve `404.html`): a browser that opened an API URL (a list with a query, a
 * random pick) before the worker was installed gets it installed, then the same URL again,
 * now answered by the worker; anything else reads that nothing is there.
 */
function notFoundPage(base: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <script src="${base}${REGISTER_SCRIPT}"></script>
    <title>Not found</title>
  </head>
  <body>
    <h1>Not found</h1>
    <p id="why">${NOT_FOUND_WHY} See <a href="${base}api/docs">the API reference</a>.</p>
    <script>
      if (location.pathname.startsWith(${JSON.stringify(`${base}api`)}) && !sessionStorage.getItem(location.href))
        siteReady.then(() => { sessionStorage.setItem(location.href, '1'); location.reload(); });
    </script>
  </body>
</html>
`;
}
