import { cp, mkdir, writeFile } from 'node:fs/promises';
import { request, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { generateCatalog, writeCatalog } from '../scripts/lib/generate-catalog.ts';
import { checkData } from '../src/catalog/check.ts';
import { loadCatalog } from '../src/catalog/load.ts';
import { ServedPictures } from '../src/served/pictures.ts';
import { offlineBrowser } from './helpers/browser.ts';
import { dataFile, json, startApp, tempDir, type TestServer } from './helpers/http.ts';
import { ROOT } from './helpers/spawn.ts';

/** A GET with exactly `headers` (fetch adds headers of its own and decodes bodies): status, headers and the bytes as sent. */
function raw(
  server: TestServer,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(`${server.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

const FAMILIES = ['actors', 'characters', 'episodes', 'seasons', 'locations', 'soundtracks', 'games'];

/** Every `thumbnail` and `images` value in a JSON answer, however deep (expanded records too). */
function pictureUrls(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) pictureUrls(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'thumbnail' && typeof inner === 'string') found.push(inner);
      else if (key === 'images' && Array.isArray(inner)) found.push(...(inner as string[]));
      else pictureUrls(inner, found);
    }
  }
  return found;
}

/** Fetches each URL once and asserts an image answer. */
async function assertPictures(server: TestServer, urls: string[]): Promise<void> {
  for (const url of new Set(urls)) {
    assert.ok(url.startsWith(`${server.url}/images/`), `${url} is not a picture of this server`);
    const answer = await fetch(url);
    assert.is(answer.status, 200, url);
    assert.match(answer.headers.get('content-type') ?? '', /^image\/(svg\+xml|png|jpeg|webp)$/, url);
    assert.ok((await answer.arrayBuffer()).byteLength > 0, url);
  }
}

test('every picture URL of every REST answer and of GraphQL points at this server and answers an image', async () => {
  const server = await startApp();
  try {
    const rest: string[] = [];
    for (const family of FAMILIES)
      rest.push(
        ...pictureUrls(
          await json(
            await server.get(
              `/api/v1/${family}?size=50&expand=${family === 'actors' ? 'character' : ''}`.replace(/&expand=$/, ''),
            ),
          ),
        ),
      );
    rest.push(...pictureUrls(await json(await server.get('/api/v1/overview'))));
    assert.is(new Set(rest).size, 272, 'the embedded catalog names 272 pictures');
    await assertPictures(server, rest);

    const fields = 'thumbnail images';
    const query = `{ ${FAMILIES.map((f) => `${f}(size: 50) { items { ${f === 'soundtracks' ? 'thumbnail' : fields} } }`).join(' ')} overview { thumbnail } }`;
    const answer = await json<{ data: unknown }>(
      await fetch(`${server.url}/api/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ query }),
      }),
    );
    const viaGraphql = pictureUrls(answer.data);
    assert.equal(new Set(viaGraphql), new Set(rest), 'GraphQL serves the same picture URLs');
  } finally {
    await server.close();
  }
});

test('a picture carries its type, a strong ETag, a long Cache-Control, nosniff and a sandboxing policy, and answers 304 on revalidation', async () => {
  const server = await startApp();
  try {
    const [character] = await json<{ thumbnail: string }[]>(await server.get('/api/v1/characters?size=1'));
    const first = await fetch(character!.thumbnail);
    const etag = first.headers.get('etag')!;
    assert.match(etag, /^"[^"]+"$/);
    assert.is(first.headers.get('content-type'), 'image/svg+xml');
    assert.is(first.headers.get('x-content-type-options'), 'nosniff');
    assert.match(first.headers.get('content-security-policy') ?? '', /default-src 'none'.*sandbox/);
    assert.match(first.headers.get('cache-control') ?? '', /max-age=\d{6,}/);
    assert.match(await first.text(), /<title id="t">Portrait of character [^<]+<\/title>/);
    // fetch adds `Cache-Control: no-cache` to a conditional request unless told otherwise, as a browser's reload does.
    const again = await fetch(character!.thumbnail, {
      headers: { 'If-None-Match': etag, 'Cache-Control': 'max-age=0' },
    });
    assert.is(again.status, 304);
    assert.is((await server.get('/images/characters/nothing-here.svg')).status, 404);
  } finally {
    await server.close();
  }
});

test('with PUBLIC_URL the pictures are under it; the origin of a request is never replayed to another', async () => {
  const server = await startApp();
  try {
    const path = '/api/v1/actors?size=1';
    const mine = await json<{ thumbnail: string }[]>(await server.get(path));
    const theirs = JSON.parse((await raw(server, path, { Host: 'classroom.lan:8080' })).body.toString()) as {
      thumbnail: string;
    }[];
    assert.ok(mine[0]!.thumbnail.startsWith(server.url));
    assert.ok(theirs[0]!.thumbnail.startsWith('http://classroom.lan:8080/images/'), theirs[0]!.thumbnail);
    assert.ok((await server.get(path)).headers.get('vary')?.includes('Host'));
  } finally {
    await server.close();
  }
  const behind = await startApp({ PUBLIC_URL: 'https://tide.example.net' });
  try {
    const [actor] = await json<{ thumbnail: string }[]>(await behind.get('/api/v1/actors?size=1'));
    assert.ok(actor!.thumbnail.startsWith('https://tide.example.net/images/actors/'), actor!.thumbnail);
  } finally {
    await behind.close();
  }
});

test('a generated catalog (npm run generate-data) names the pictures the server draws, and every one answers an image', async () => {
  const dir = await tempDir();
  await writeCatalog(dir, generateCatalog({ actors: 40, seed: 5 }));
  const server = await startApp({ DATA_DIR: dir });
  try {
    const urls: string[] = pictureUrls(await json(await server.get('/api/v1/overview')));
    for (const family of FAMILIES) urls.push(...pictureUrls(await json(await server.get(`/api/v1/${family}?size=50`))));
    assert.ok(new Set(urls).size > 300, `${new Set(urls).size} picture URLs`);
    await assertPictures(server, urls);
  } finally {
    await server.close();
  }
});

test('an SVG picture is compressed once per encoding, with Vary, a tag per encoding and 304; a PNG never', async () => {
  const server = await startApp();
  try {
    const [season] = await json<{ thumbnail: string }[]>(await server.get('/api/v1/seasons?size=1'));
    const path = new URL(season!.thumbnail).pathname;
    const plain = await raw(server, path);
    assert.ok(plain.body.length >= 1024, 'a poster is big enough to be worth compressing');
    assert.match(String(plain.headers.vary), /Accept-Encoding/);
    const tags = new Set([plain.headers.etag]);
    for (const [encoding, decode] of [
      ['gzip', gunzipSync],
      ['br', brotliDecompressSync],
    ] as const) {
      // Between equals the client's order decides, as for every answer (negotiate in src/http/send.ts).
      const accept = encoding === 'gzip' ? 'gzip, br' : 'br';
      const answer = await raw(server, path, { 'Accept-Encoding': accept });
      assert.is(answer.headers['content-encoding'], encoding);
      assert.match(String(answer.headers.vary), /Accept-Encoding/);
      assert.is(answer.headers['content-type'], 'image/svg+xml');
      assert.is(answer.headers['content-length'], String(answer.body.length));
      assert.equal(decode(answer.body), plain.body);
      assert.match(String(answer.headers.etag), /^"[^"]+"$/);
      tags.add(answer.headers.etag);
      const again = await raw(server, path, {
        'Accept-Encoding': accept,
        'If-None-Match': String(answer.headers.etag),
      });
      assert.is(again.status, 304, encoding);
      assert.is(again.headers.etag, answer.headers.etag);
      assert.is(
        (await raw(server, path, { 'If-None-Match': String(answer.headers.etag) })).status,
        200,
        `the ${encoding} tag does not stand for the plain bytes`,
      );
    }
    assert.is(tags.size, 3, 'each encoding has a tag of its own');
  } finally {
    await server.close();
  }
  const loaded = await loadCatalog(join(ROOT, 'data'), { defaultLanguage: 'en-US' });
  assert.ok(loaded.ok);
  const pictures = new ServedPictures(loaded.catalog);
  const poster = loaded.catalog.store('seasons').records[0]!.thumbnail as string;
  const entry = pictures.get(poster)!;
  assert.is(pictures.get(poster), entry, 'drawn once, then kept');
  assert.is(entry.bytes('br'), entry.bytes('br'), 'compressed once, then kept');
});

test('a page of character cards shows every picture in a browser with nothing off this machine', async () => {
  const server = await startApp();
  const browser = await offlineBrowser(await tempDir());
  try {
    const characters = await json<{ first_name: string; thumbnail: string; images: string[] }[]>(
      await server.get('/api/v1/characters?size=50'),
    );
    await browser.page.goto(`${server.url}/api/ping`);
    const cards = characters
      .map(
        (c) =>
          `<figure><img src="${c.thumbnail}" alt=""><figcaption>${c.first_name}</figcaption>${c.images.map((i) => `<img src="${i}" alt="">`).join('')}</figure>`,
      )
      .join('');
    await browser.page.setContent(cards, { waitUntil: 'load' });
    // A string, so the test's types need no DOM: every <img>, decoded, with its natural width.
    const sizes = await browser.page.evaluate<{ src: string; width: number }[]>(
      'Promise.all([...document.images].map((img) => img.decode().catch(() => undefined))).then(() => [...document.images].map((img) => ({ src: img.src, width: img.naturalWidth })))',
    );
    assert.ok(sizes.length > characters.length);
    for (const { src, width } of sizes) assert.ok(width > 0, `${src} is a broken image`);
    assert.equal(browser.blocked, []);
    assert.equal(browser.problems, []);
  } finally {
    await browser.context.close();
    await server.close();
  }
});

test('check-data judges every file under images/ by its content and every picture path by one rule', async () => {
  const dir = await tempDir();
  await cp(join(ROOT, 'data'), dir, { recursive: true });
  const svg = (inside: string, attributes = '') =>
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"${attributes}><title>x</title>${inside}</svg>`;
  const files: Record<string, string> = {
    'clean.svg': svg('<rect width="10" height="10" fill="url(#g)"/>'),
    'script.svg': svg('<script>alert(1)</script>'),
    'onload.svg': svg('', ' onload="alert(1)"'),
    'external.svg': svg('<image href="https://tracker.example.com/x.png" width="10" height="10"/>'),
    'style.svg': svg('<rect style="fill: url(//evil.example.com/a)" width="1" height="1"/>'),
    'not-a-png.png': svg(''),
    'unnamed.svg': svg('<a href="javascript:alert(1)"><text>x</text></a>'),
    'notes.html': '<script>alert(1)</script>',
    '.gitkeep': '',
  };
  await mkdir(join(dir, 'images', 'contributed'), { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, 'images', 'contributed', name), text);
  const characters = await dataFile('characters.json');
  const actors = await dataFile('actors.json');
  Object.keys(files)
    .slice(0, 6)
    .forEach((name, i) => (characters[i]!.thumbnail = `/images/contributed/${name}`));
  characters[6]!.thumbnail = '/images/contributed/missing.svg';
  characters[7]!.thumbnail = '/images/actors/00000000-0000-4000-8000-000000000000.svg';
  // Another record's drawn picture (here an actor's portrait, a variant it does not name itself) is accepted.
  characters[8]!.images = [`/images/actors/${String(actors[0]!.uuid)}-7.svg`];
  await writeFile(join(dir, 'characters.json'), `${JSON.stringify(characters, null, 2)}\n`);

  const { ok, lines } = await checkData(dir, 'en-US');
  assert.not.ok(ok);
  const text = lines.join('\n');
  assert.not.match(text, /clean\.svg|gitkeep|record 8/);
  const refused = (file: string, reason: string) =>
    assert.ok(lines.includes(`images/contributed/${file}: ${reason}`), `${file}: ${text}`);
  refused('script.svg', 'is refused as a picture: element <script> is not part of a static picture: it runs script');
  refused(
    'onload.svg',
    'is refused as a picture: attribute onload= on <svg> is not part of a static picture: event handlers run script',
  );
  refused(
    'external.svg',
    'is refused as a picture: element <image> is not part of a static picture: it loads another document',
  );
  assert.match(
    text,
    /images\/contributed\/style\.svg: is refused as a picture: attribute style= on <rect> holds a url\(\)/,
  );
  refused('not-a-png.png', 'is a file of type image/svg+xml but its name says image/png');
  assert.match(
    text,
    /images\/contributed\/unnamed\.svg: is refused as a picture: attribute href= on <a> points outside/,
  );
  assert.match(text, /images\/contributed\/notes\.html: warning: is not a picture a record can name/);
  assert.match(text, /record 6 .*\/thumbnail: '\/images\/contributed\/missing\.svg' is not a file under images\//);
  assert.match(
    text,
    /record 7 .*\/thumbnail: '\/images\/actors\/0{8}-0{4}-4000-8000-0{12}\.svg' names the picture drawn for actors record '0{8}-0{4}-4000-8000-0{12}', which the catalog does not have/,
  );
  assert.match(text, /^8 problems and 1 warning in /m);
});

test('a contributed picture wins over the drawn one and is served as it is, uncompressed', async () => {
  const dir = await tempDir();
  await cp(join(ROOT, 'data'), dir, { recursive: true });
  const [first] = await dataFile('characters.json');
  const path = first!.thumbnail as string;
  await mkdir(join(dir, 'images', 'characters'), { recursive: true });
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(4000)]);
  await writeFile(join(dir, path.replace('.svg', '.png')), png);
  const characters = await dataFile('characters.json');
  characters[0]!.thumbnail = path.replace('.svg', '.png');
  await writeFile(join(dir, 'characters.json'), `${JSON.stringify(characters, null, 2)}\n`);
  const server = await startApp({ DATA_DIR: dir });
  try {
    const [character] = await json<{ thumbnail: string }[]>(await server.get('/api/v1/characters?size=1'));
    const answer = await fetch(character!.thumbnail);
    assert.is(answer.headers.get('content-type'), 'image/png');
    assert.equal(Buffer.from(await answer.arrayBuffer()), png);
    // Compressed already, as PNG, JPEG and WebP are: gzip or br would only cost (zeros would shrink, a real PNG would not).
    const offered = await raw(server, new URL(character!.thumbnail).pathname, { 'Accept-Encoding': 'gzip, br' });
    assert.is(offered.headers['content-encoding'], undefined);
    assert.not.match(String(offered.headers.vary), /Accept-Encoding/);
    assert.equal(offered.body, png);
  } finally {
    await server.close();
  }
});

test.run();
