import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CachedResponse } from '../served/cached-response.ts';
import { PAGE_HEADERS, staticFile } from '../http/static-page.ts';

/**
 * Where `npm run build` puts GraphiQL (scripts/build.mjs): beside the bundled server
 * (dist/graphiql/), and found from the sources too (tests, `npm run dev`) once built.
 */
const PLACES = [new URL('./graphiql/', import.meta.url), new URL('../../dist/graphiql/', import.meta.url)].map((url) =>
  fileURLToPath(url),
);

/** The files of the GraphiQL page, as `/api/graphql/{file}` serves them. */
const FILES: Readonly<Record<string, string>> = {
  'graphiql.js': 'text/javascript; charset=utf-8',
  'graphiql.css': 'text/css; charset=utf-8',
};

export interface GraphiQLPage {
  page: CachedResponse;
  files: ReadonlyMap<string, CachedResponse>;
}

/**
 * GraphiQL's page, script and stylesheet, read into memory; undefined when GraphiQL has not
 * been built (a source checkout before `npm run build`).
 *
 * @example
 * loadGraphiQL()?.files.get('graphiql.js')!.headers['Content-Type']; // 'text/javascript; charset=utf-8'
 */
export function loadGraphiQL(): GraphiQLPage | undefined {
  const dir = PLACES.find((place) => existsSync(`${place}index.html`));
  if (!dir) return undefined;
  return {
    page: staticFile(dir, 'index.html', { 'Content-Type': 'text/html; charset=utf-8', ...PAGE_HEADERS }),
    files: new Map(
      Object.entries(FILES).map(([name, type]) => [name, staticFile(dir, name, { 'Content-Type': type })]),
    ),
  };
}
