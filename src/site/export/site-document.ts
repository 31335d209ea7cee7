/**
 * What a client without the worker gets from the site, by host: said in the reference page
 * (the OpenAPI document's description) and in docs/static-site.md.
 */
export const WITHOUT_THE_WORKER = [
  '## This copy is a static site',
  "Its read API is answered in your browser by the site's Service Worker, which runs the server's own code over the " +
    'catalog: every read (lists, filters, sorting, paging, search, expand, fields, languages, random picks) answers ' +
    'as the server does. Writes, accounts and sandboxes need the server: here they answer 405, and the client ' +
    "package and request collections linked above are the server's alone.",
  'A client without the worker (curl, the Go SDK, a script) gets files:',
  [
    ['Read', 'GitHub Pages, `python3 -m http.server`', 'Cloudflare Pages, Netlify (`_headers`)'],
    ['---', '---', '---'],
    [
      "A record by uuid, its translations, an actor's socials, the overview, `/api`",
      'the JSON, after a redirect to the path with a `/`, typed `text/html`',
      'the JSON, after a redirect to the path with a `/`, typed `application/json`',
    ],
    ['A list, a random pick, anything with a query', '404 (the host has no file for a query)', '404'],
    [
      'A picture',
      "the file, typed by its extension, without the server's `Content-Security-Policy`",
      "the file, with the server's policy",
    ],
  ]
    .map((cells) => `| ${cells.join(' | ')} |\n`)
    .join(''),
].join('\n\n');

/**
 * The server's OpenAPI document as the site's: its one server is the site's base, and its
 * description says what works without the worker.
 *
 * @example
 * siteDocument(text, '/repo/'); // '{"openapi":"3.1.0",…,"servers":[{"url":"/repo/",…}]…}'
 */
export function siteDocument(text: string, base: string): string {
  const document = JSON.parse(text) as { info: { description?: string }; servers?: unknown[] };
  document.servers = [{ url: base, description: 'This static site (its read API is answered by its Service Worker)' }];
  document.info.description = `${document.info.description ?? ''}\n\n${WITHOUT_THE_WORKER}`;
  return JSON.stringify(document);
}
