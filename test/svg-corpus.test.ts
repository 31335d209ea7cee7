import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { drawPicture } from '../src/catalog/pictures/draw.ts';
import { svgRefusal } from '../src/catalog/pictures/svg-check.ts';
import { FAMILY_NAMES } from '../src/catalog/families.ts';
import { startApp, tempDir, TEST_ENV } from './helpers/http.ts';
import { ROOT, runScript } from './helpers/spawn.ts';

// The SVG check against published attack vectors (test/fixtures/hostile-svg: each names the
// element, attribute or construct it must be refused for) and against every picture the
// server draws, which must pass the very check contributed pictures pass.
const CORPUS = join(ROOT, 'test', 'fixtures', 'hostile-svg');
const corpus = JSON.parse(await readFile(join(CORPUS, 'corpus.json'), 'utf8')) as { file: string; names: string }[];
const test = suite('contributed SVGs: checked by parsing against a static-picture profile');

test('every vector of the corpus is refused, naming the element, attribute or construct it is refused for', async () => {
  assert.ok(corpus.length >= 40, `${corpus.length} vectors`);
  for (const { file, names } of corpus) {
    const refused = svgRefusal(await readFile(join(CORPUS, file), 'utf8'));
    assert.ok(refused?.includes(names), `${file}: expected a refusal naming ${names}, got ${String(refused)}`);
  }
});

test('check-data refuses each corpus file under images/, named by file with its reason, named by a record or not', async () => {
  const dir = join(await tempDir(), 'data');
  await cp(join(ROOT, 'data'), dir, { recursive: true });
  await mkdir(join(dir, 'images', 'contributed'), { recursive: true });
  for (const { file } of corpus) await cp(join(CORPUS, file), join(dir, 'images', 'contributed', file));
  const characters = JSON.parse(await readFile(join(dir, 'characters.json'), 'utf8')) as Record<string, unknown>[];
  characters[0]!.thumbnail = `/images/contributed/${corpus[0]!.file}`;
  await writeFile(join(dir, 'characters.json'), `${JSON.stringify(characters, null, 2)}\n`);
  const { code, stdout, stderr } = await runScript('scripts/check-data.ts', [dir], { ...TEST_ENV, DATA_DIR: dir });
  assert.is(code, 1, stdout);
  for (const { file, names } of corpus) {
    const line = stderr.split('\n').find((text) => text.startsWith(`images/contributed/${file}: `));
    assert.ok(line?.includes(names), `${file}: ${String(line)}`);
  }
  assert.match(stderr, `${corpus.length} problems in ${dir}`);
});

test('a clean contributed SVG passes: gradients, fragment references, a style element, text, filters', () => {
  const clean = `<?xml version="1.0" encoding="UTF-8"?>
<!-- a comment -->
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 40 40" role="img" aria-label="A \\ B">
  <title>Lighthouse</title><desc>Drawn by hand</desc>
  <style><![CDATA[ .beam { fill: url(#g); stroke: url( "#g" ) } /* url(#x) */ ]]></style>
  <defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient>
    <filter id="f"><feGaussianBlur stdDeviation="2"/></filter><path id="p" d="M0 0h40"/></defs>
  <rect class="beam" width="40" height="40" style="fill: url(#g); opacity: .5" filter="url(#f)"/>
  <use href="#p"/><use xlink:href="#p" x="2"/><a href="#p"><text xml:space="preserve">São Brás &amp; co</text></a>
  <text><textPath href="#p">along</textPath></text>
</svg>`;
  assert.is(svgRefusal(clean), undefined);
});

test('deep nesting, a huge attribute and truncated text are judged without a stack overflow', () => {
  const svg = (inside: string) => `<svg xmlns="http://www.w3.org/2000/svg">${inside}</svg>`;
  const nested = (depth: number, inside = '') => `${'<g>'.repeat(depth)}${inside}${'</g>'.repeat(depth)}`;
  assert.is(svgRefusal(svg(nested(255))), undefined);
  assert.match(svgRefusal(svg(nested(254, '<script/>'))) ?? '', '<script>');
  // 170,000 levels fit in the largest picture allowed (512 KiB): refused at the 257th.
  assert.match(svgRefusal(svg(nested(170_000))) ?? '', 'nests deeper than 256');
  const open = '<g>'.repeat(200);
  assert.match(svgRefusal(svg(`<path d="${'M0 0'.repeat(100_000)}" onclick="x"/>`)) ?? '', 'onclick=');
  assert.match(svgRefusal(svg(open)) ?? '', 'not well-formed');
  assert.match(svgRefusal('') ?? '', 'not well-formed');
});

test('every picture the server draws passes the same check: each family and variant, with hostile names', () => {
  const names = ['Iris', '<script>alert(1)</script>', '"quoted" & \'single\'', ']]> <!-- -->', 'São Brás \u202e'];
  for (const family of FAMILY_NAMES)
    for (const name of names)
      for (const variant of [0, 1, 999]) {
        const svg = drawPicture({ family, uuid: 'u', name, detail: name }, variant);
        assert.is(svgRefusal(svg), undefined, `${family} ${variant} ${name}`);
      }
});

test('every picture the compiled server serves for the embedded catalog passes the check', async () => {
  const app = await startApp();
  try {
    const seen = new Set<string>();
    for (const family of FAMILY_NAMES) {
      const path = family === 'overview' ? '/api/v1/overview' : `/api/v1/${family}?size=50`;
      const answer = (await (await app.get(path)).text()).replaceAll(app.url, '');
      for (const match of answer.match(/"\/images\/[^"]+\.svg"/g) ?? []) seen.add(JSON.parse(match) as string);
    }
    assert.ok(seen.size > 200, `${seen.size} pictures`);
    for (const path of seen) {
      const picture = await app.get(path);
      assert.is(picture.status, 200, path);
      assert.is(svgRefusal(await picture.text()), undefined, path);
    }
  } finally {
    await app.close();
  }
});

test.run();
