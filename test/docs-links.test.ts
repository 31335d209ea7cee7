import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  checkLinks,
  documentationFiles,
  headingAnchors,
  readPage,
  tableProblems,
  unlistedPages,
} from './helpers/markdown-links.ts';
import { FIXTURES } from './helpers/fixtures.ts';
import { ROOT } from './helpers/spawn.ts';

test("headings take GitHub's anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered", () => {
  assert.equal(
    headingAnchors(['Rate limits', 'Caching, compression, CORS', 'Rate limits', 'Rate limits', 'Classroom, offline']),
    ['rate-limits', 'caching-compression-cors', 'rate-limits-1', 'rate-limits-2', 'classroom-offline'],
  );
  assert.equal(
    headingAnchors(['Lists: paging and sorting', "What it's for (v2.0)", 'São Brás & the `sea`', 'ENV_VAR_NAME']),
    ['lists-paging-and-sorting', 'what-its-for-v20', 'são-brás--the-sea', 'env_var_name'],
  );
});

test('a page anchors its headings by their text without markup, and its HTML ids and names', () => {
  const page = readPage(
    '# The *API*\n\n## `npm start` on [Windows](#x)\n\n## The API\n\n<a name="old-name"></a>\n\n<p>text <span id="inline-id">x</span></p>\n',
  );
  assert.equal([...page.anchors].sort(), ['inline-id', 'npm-start-on-windows', 'old-name', 'the-api', 'the-api-1']);
});

test('links are read from Markdown, references and HTML with their lines, never from code', () => {
  const page = readPage(
    [
      'See [a](a.md) and',
      '[b](b.md#x), ![c](c.png).',
      '',
      '```sh',
      'curl [d](d.md)',
      '```',
      '',
      '`[e](e.md)` then [f][ref].',
      '',
      '| cell | [g](g.md) |',
      '| --- | --- |',
      '| h | [h](h.md) |',
      '',
      '<div><a href="i.md">i</a></div>',
      '',
      '[ref]: f.md',
    ].join('\n'),
  );
  assert.equal(page.links, [
    { href: 'a.md', line: 1 },
    { href: 'b.md#x', line: 2 },
    { href: 'c.png', line: 2 },
    { href: 'f.md', line: 8 },
    { href: 'g.md', line: 10 },
    { href: 'h.md', line: 12 },
    { href: 'i.md', line: 14 },
  ]);
});

test('every broken link of a fixture is reported with its file, line and what is wrong', async () => {
  const { problems, checked } = await checkLinks(join(FIXTURES, 'links'), ['README.md', 'docs/guide.md']);
  assert.equal(problems, [
    'README.md:17: docs/missing.md: no such file or folder (docs/missing.md)',
    "README.md:18: #nowhere: no heading or HTML anchor 'nowhere' in README.md",
    "README.md:19: docs/guide.md#setting-it-down: no heading or HTML anchor 'setting-it-down' in docs/guide.md",
    "README.md:20: docs/guide.md#Setting-It-Up: no heading or HTML anchor 'Setting-It-Up' in docs/guide.md",
    'README.md:21: docs/notes.txt#L1: anchors are checked only on Markdown pages, and docs/notes.txt is not one',
    'README.md:22: docs/empty/#top: docs/empty has no README.md to hold #top',
    'README.md:23: ../../../package.json: points outside the repository',
    'README.md:24: img/none.png: no such file or folder (img/none.png)',
    "README.md:25: docs/guide.md#unknown: no heading or HTML anchor 'unknown' in docs/guide.md",
    'README.md:27: docs/gone.md: no such file or folder (docs/gone.md)',
  ]);
  // 10 resolving links (the two external ones are not followed), 10 broken, 2 in the guide.
  assert.is(checked, 22);
});

test('every relative link and anchor in README.md, CONTRIBUTING.md and docs/ resolves', async () => {
  const files = await documentationFiles(ROOT);
  for (const page of [
    'README.md',
    'CONTRIBUTING.md',
    'docs/README.md',
    'docs/configuration.md',
    'docs/deploy.md',
    'docs/INTERNALS.md',
  ]) {
    assert.ok(files.includes(page), `${page} is checked`);
  }
  const { problems, checked } = await checkLinks(ROOT, files);
  assert.equal(problems, []);
  assert.ok(checked > 50, `${checked} links checked`);
});

test('a page under docs/ that docs/README.md does not link to is reported; a link with an anchor counts', async () => {
  const root = await mkdtemp(join(tmpdir(), 'docs-index-'));
  try {
    await mkdir(join(root, 'docs', 'sub'), { recursive: true });
    for (const page of ['listed.md', 'anchored.md', 'forgotten.md', 'sub/deeper.md'])
      await writeFile(join(root, 'docs', page), '# A page\n');
    await writeFile(
      join(root, 'docs', 'README.md'),
      '# Documentation\n\n[One](listed.md), [two](anchored.md#a-page), [up](../README.md).\n\n```\n[not a link](forgotten.md)\n```\n',
    );
    assert.equal(await unlistedPages(root), [join('docs', 'forgotten.md'), join('docs', 'sub', 'deeper.md')]);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('docs/README.md lists every page under docs/', async () => {
  assert.equal(await unlistedPages(ROOT), []);
});

test('a table row with more or fewer cells than its header is reported, an escaped pipe is not a cell', () => {
  const table = [
    '| Path | Answer |',
    '| --- | --- |',
    '| `a\\|b` | one |',
    '| `a|b` | two |',
    '| three |',
    'no | pipes | at the ends',
    '',
  ].join('\n');
  assert.equal(tableProblems(table), [
    'line 4: 3 cells, the header has 2',
    'line 5: 1 cell, the header has 2',
    'line 6: 3 cells, the header has 2',
  ]);
});

test("every table row in README.md, CONTRIBUTING.md and docs/ has its header's number of cells", async () => {
  for (const file of await documentationFiles(ROOT)) {
    assert.equal(tableProblems(await readFile(join(ROOT, file), 'utf8')), [], file);
  }
});

test('README.md and CONTRIBUTING.md name the Chromium packages .ci/run installs', async () => {
  // Per `apt-get install` command, the packages it names that start with 'chromium'.
  const chromiumPackages = (text: string) =>
    [...text.matchAll(/apt-get install ([^`\n>]*)/g)]
      .map(([, args]) =>
        args!
          .split(/\s+/)
          .filter((word) => word.startsWith('chromium'))
          .join(' '),
      )
      .filter(Boolean);
  const installed = chromiumPackages(await readFile(join(ROOT, '.ci/run'), 'utf8'));
  assert.equal(installed, ['chromium chromium-driver']);
  for (const page of ['README.md', 'CONTRIBUTING.md'])
    assert.equal(chromiumPackages(await readFile(join(ROOT, page), 'utf8')), installed, page);
});

test('the README stays a first page: at most 200 lines, with the install, start and test commands', async () => {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const lines = readme.trimEnd().split('\n').length;
  assert.ok(lines <= 200, `README.md has ${lines} lines`);
  for (const command of [/^npm install\b/m, /^npm start\b/m, /^npm test\b/m]) assert.match(readme, command);
});

test.run();
