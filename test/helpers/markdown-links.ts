import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import GithubSlugger from 'github-slugger';
import MarkdownIt, { type Token } from 'markdown-it';

/** A link as written in a Markdown file, with its 1-based line. */
export interface Link {
  href: string;
  line: number;
}

/** What a Markdown page defines (heading and HTML anchors) and what it points to. */
export interface Page {
  anchors: Set<string>;
  links: Link[];
}

const parser = new MarkdownIt({ html: true });
const HTML_ANCHOR = /\s(?:id|name)\s*=\s*["']([^"']+)["']/gi;
const HTML_LINK = /\s(?:href|src)\s*=\s*["']([^"']+)["']/gi;

/**
 * GitHub's anchors for a page's headings, in order: lower case, punctuation dropped, spaces
 * turned to hyphens, and a repeated anchor suffixed -1, -2…
 *
 * @example
 * headingAnchors(['Rate limits', 'Caching, compression, CORS', 'Rate limits']);
 * // ['rate-limits', 'caching-compression-cors', 'rate-limits-1']
 */
export function headingAnchors(texts: string[]): string[] {
  const slugger = new GithubSlugger();
  return texts.map((text) => slugger.slug(text));
}

/** The text GitHub slugs a heading from: its words and code, without markup, HTML or images. */
function headingText(inline: Token): string {
  return (inline.children ?? [])
    .filter((t) => t.type === 'text' || t.type === 'code_inline')
    .map((t) => t.content)
    .join('');
}

/** Every value of `pattern`'s first group in an HTML fragment, with the line it is on. */
function htmlValues(html: string, pattern: RegExp, firstLine: number): Link[] {
  return [...html.matchAll(pattern)].map((m) => ({
    href: m[1]!,
    line: firstLine + html.slice(0, m.index).split('\n').length - 1,
  }));
}

/**
 * Parses a Markdown page: its anchors (headings by GitHub's rules, HTML `id` and `name`) and
 * its links (Markdown links and images, HTML `href` and `src`), code blocks and spans excluded.
 *
 * @example
 * readPage('# Title\n\nSee [usage](#usage).').links; // [{ href: '#usage', line: 3 }]
 */
export function readPage(markdown: string): Page {
  const tokens = parser.parse(markdown, {});
  const headings: string[] = [];
  const anchors = new Set<string>();
  const links: Link[] = [];
  let line = 1;
  tokens.forEach((token, i) => {
    if (token.map) line = token.map[0] + 1;
    if (token.type === 'heading_open') headings.push(headingText(tokens[i + 1]!));
    if (token.type === 'html_block') {
      for (const { href } of htmlValues(token.content, HTML_ANCHOR, line)) anchors.add(href);
      links.push(...htmlValues(token.content, HTML_LINK, line));
    }
    if (token.type !== 'inline') return;
    let at = line;
    for (const child of token.children ?? []) {
      if (child.type === 'softbreak' || child.type === 'hardbreak') at++;
      const href =
        child.type === 'link_open' ? child.attrGet('href') : child.type === 'image' ? child.attrGet('src') : null;
      if (href !== null) links.push({ href: String(href), line: at });
      if (child.type === 'html_inline') {
        for (const { href: id } of htmlValues(child.content, HTML_ANCHOR, at)) anchors.add(id);
        links.push(...htmlValues(child.content, HTML_LINK, at));
      }
    }
  });
  for (const anchor of headingAnchors(headings)) anchors.add(anchor);
  return { anchors, links };
}

/** The cells of a table row's source line, split as GitHub does: on every pipe not escaped. */
function cellCount(row: string): number {
  return row
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/).length;
}

/**
 * Table rows whose number of cells differs from their header's (GitHub drops the extra cells
 * and leaves missing ones empty), as `line N: …`. A pipe inside a code span splits a cell
 * unless escaped (`\\|`).
 *
 * @example
 * tableProblems('| a | b |\n| --- | --- |\n| `x|y` | z |'); // ['line 3: 3 cells, the header has 2']
 */
export function tableProblems(markdown: string): string[] {
  const lines = markdown.split('\n');
  const problems: string[] = [];
  let header = 0;
  for (const token of parser.parse(markdown, {})) {
    if (token.type === 'table_open') header = 0;
    if (token.type !== 'tr_open' || !token.map) continue;
    const cells = cellCount(lines[token.map[0]]!);
    if (!header) header = cells;
    else if (cells !== header)
      problems.push(`line ${token.map[0] + 1}: ${cells} cell${cells === 1 ? '' : 's'}, the header has ${header}`);
  }
  return problems;
}

/** The Markdown files the link check covers: README.md, CONTRIBUTING.md and every page under docs/. */
export async function documentationFiles(root: string): Promise<string[]> {
  const docs = (await readdir(join(root, 'docs'), { recursive: true }))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name));
  return ['README.md', 'CONTRIBUTING.md', ...docs.sort()];
}

/** The kind of thing at `path`, or undefined when nothing is there. */
async function kindOf(path: string): Promise<'file' | 'directory' | undefined> {
  const found = await stat(path).catch(() => undefined);
  return found?.isDirectory() ? 'directory' : found ? 'file' : undefined;
}

/**
 * Checks every relative link of `files` (paths relative to `root`): the file or folder it
 * names exists inside `root`, and its `#anchor`, on the same page or another Markdown page,
 * is defined there. Links with a scheme (`https:`, `mailto:`) are not followed.
 * Returns one line per broken link (`file:line: href: what is wrong`) and how many links
 * were checked.
 *
 * @example
 * const { problems } = await checkLinks(ROOT, await documentationFiles(ROOT));
 */
export async function checkLinks(root: string, files: string[]): Promise<{ problems: string[]; checked: number }> {
  const pages = new Map<string, Promise<Page>>();
  const pageAt = (path: string) => pages.get(path) ?? pages.set(path, readFile(path, 'utf8').then(readPage)).get(path)!;
  const problems: string[] = [];
  let checked = 0;
  for (const file of files) {
    const source = resolve(root, file);
    for (const { href, line } of (await pageAt(source)).links) {
      if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(href)) continue;
      checked++;
      const problem = await linkProblem(root, source, href, pageAt);
      if (problem) problems.push(`${file}:${line}: ${href}: ${problem}`);
    }
  }
  return { problems, checked };
}

/** What is wrong with one relative link from the page at `source`, or undefined. */
async function linkProblem(
  root: string,
  source: string,
  href: string,
  pageAt: (path: string) => Promise<Page>,
): Promise<string | undefined> {
  const hashAt = href.indexOf('#');
  const [pathPart, anchor] = hashAt < 0 ? [href, undefined] : [href.slice(0, hashAt), href.slice(hashAt + 1)];
  const pathOnly = pathPart.split('?')[0]!;
  let target = source;
  if (pathOnly) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathOnly);
    } catch {
      return 'is not a valid URL path';
    }
    target = decoded.startsWith('/') ? join(root, decoded) : resolve(dirname(source), decoded);
  }
  const inside = relative(root, target);
  if (inside === '..' || inside.startsWith(`..${sep}`)) return 'points outside the repository';
  const kind = await kindOf(target);
  if (!kind) return `no such file or folder (${inside})`;
  if (!anchor) return undefined;
  const page = kind === 'directory' ? join(target, 'README.md') : target;
  if (extname(page) !== '.md') return `anchors are checked only on Markdown pages, and ${inside} is not one`;
  if ((await kindOf(page)) !== 'file') return `${inside} has no README.md to hold #${anchor}`;
  let wanted: string;
  try {
    wanted = decodeURIComponent(anchor);
  } catch {
    return 'is not a valid URL fragment';
  }
  return (await pageAt(page)).anchors.has(wanted)
    ? undefined
    : `no heading or HTML anchor '${wanted}' in ${relative(root, page)}`;
}

/**
 * The Markdown pages under `root`'s docs/ (paths like `docs/api.md`) that docs/README.md,
 * the index of the documentation, does not link to; docs/README.md itself is not counted. A
 * link with an `#anchor` counts as a link to its page.
 *
 * @example
 * await unlistedPages(ROOT); // [] when the index lists every page
 */
export async function unlistedPages(root: string): Promise<string[]> {
  const index = join(root, 'docs', 'README.md');
  const { links } = readPage(await readFile(index, 'utf8'));
  const relativeLinks = links.map(({ href }) => href).filter((href) => !/^[a-z][a-z0-9+.-]*:|^\/\//i.test(href));
  const listed = new Set(
    relativeLinks.map((href) => relative(root, resolve(dirname(index), decodeURIComponent(href.split(/[#?]/)[0]!)))),
  );
  return (await documentationFiles(root)).filter(
    (file) => file.startsWith(`docs${sep}`) && file !== join('docs', 'README.md') && !listed.has(file),
  );
}
