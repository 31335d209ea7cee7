import { createClient, Pageable } from '@hawapi/js-sdk';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dataFile, startApp } from './helpers/http.ts';

// The official HawAPI JavaScript client, unchanged, pointed at our server.
const server = await startApp();
const client = createClient({ endpoint: `${server.url}/api`, inMemoryCache: false, language: 'pt-BR', size: 5 });
const actors = await dataFile('actors.json');
const episodes = await dataFile('episodes.json');

test('ping and info', async () => {
  assert.is(await client.ping(), 'Pong');
  const info = await client.getInfo();
  assert.is(info.api_base_url, '/api/v1');
  assert.is(info.api_version, 'v1');
});

test('getAll reads the page, its headers and the language; filters and pageable reach the server', async () => {
  const page = await client.getAll(
    'episodes',
    null,
    new Pageable({ page: 2, size: 4, sort: 'episode_num', order: 'desc' }),
  );
  assert.is(page.status, 200);
  assert.is(page.page, 2);
  assert.is(page.page_size, 4);
  assert.is(page.item_size, episodes.length);
  assert.is(page.page_total, Math.ceil(episodes.length / 4));
  assert.is(page.next_page, 3);
  assert.is(page.prev_page, 1);
  assert.is(page.language, 'pt-BR');
  assert.ok(page.etag.length > 0);
  assert.ok(page.length > 0, 'Content-Length read');
  const nums = (page.data as unknown as { episode_num: number }[]).map((e) => e.episode_num);
  assert.equal(
    nums,
    [...nums].sort((a, b) => b - a),
  );
  const brazilian = await client.getAll('actors', { nationality: 'Brazilian' });
  assert.equal(
    (brazilian.data as { uuid: string }[]).map((a) => a.uuid),
    actors
      .filter((a) => a.nationality === 'Brazilian')
      .slice(0, 5)
      .map((a) => a.uuid),
  );
});

test('getBy, getRandom, translations and socials', async () => {
  const actor = actors.find((a) => Array.isArray(a.socials) && a.socials.length > 0)!;
  const one = await client.getBy('actors', String(actor.uuid));
  assert.is((one.data as { uuid: string }).uuid, actor.uuid);
  const random = await client.getRandom('characters');
  assert.is(random.status, 200);
  const translations = await client.getAllTranslations('episodes', String(episodes[0]!.uuid));
  assert.ok((translations.data as { language: string }[]).some((t) => t.language === 'pt-BR'));
  const randomTranslation = await client.getRandomTranslation('episodes', String(episodes[0]!.uuid));
  assert.is(randomTranslation.status, 200);
  const socials = await client.getAllSocials(String(actor.uuid));
  assert.equal(socials.data, actor.socials);
  const network = String((actor.socials as { social: string }[])[0]!.social);
  const social = await client.getSocialBy(String(actor.uuid), network.toLowerCase());
  assert.is((social.data as { social: string }).social, network);
  assert.is((await client.getRandomSocial(String(actor.uuid))).status, 200);
  const overview = await client.getOverview('pt-BR');
  assert.is((overview.data as { language: string }).language, 'pt-BR');
});

test('errors reach the client as the parsed error body', async () => {
  try {
    await client.getBy('actors', '00000000-0000-4000-8000-000000000000');
    assert.unreachable('a 404 must reject');
  } catch (error) {
    const body = error as { code?: number; message?: string };
    assert.is(body.code, 404);
    assert.is(body.message, "Actor '00000000-0000-4000-8000-000000000000' not found");
  }
});

test.after(() => server.close());
test.run();
