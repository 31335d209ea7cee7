import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { catalogOf } from '../scripts/bench/scale.ts';
import { oracleCatalog } from './helpers/catalog-oracle.ts';
import { ROOT } from './helpers/spawn.ts';
import { differences, siteUnderTest, workerAnswers } from './helpers/site.ts';

// A site of a generated catalog of 100,000 records: within the hosts' limits (the export says what it left out to stay
// so), and its worker still answers as the server does.
const data = join(ROOT, await catalogOf(100_000, 'var/bench', () => {}));
const site = await siteUnderTest('/', { DATA_DIR: data });

test.after(() => site.close());

/** Every file under `dir`, by path, with its size. */
function sizes(dir: string): Map<string, number> {
  const found = new Map<string, number>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else found.set(relative(dir, path), statSync(path).size);
    }
  };
  walk(dir);
  return found;
}

test('the export stays within every host limit, and says what it left out', () => {
  const files = sizes(site.dir);
  assert.ok(files.size <= 20_000, `${files.size} files (Cloudflare Pages takes 20,000)`);
  for (const [path, size] of files) assert.ok(size <= 25 * 2 ** 20, `${path}: ${size} bytes (25 MiB a file at most)`);
  const total = [...files.values()].reduce((sum, size) => sum + size, 0);
  assert.ok(total < 2 ** 30, `${total} bytes (GitHub Pages: 1 GB)`);
  assert.match(site.exportOutput, /left out \d+ of \d+ files of single records/);
  assert.match(site.exportOutput, /left out \d+ of \d+ drawn pictures/);
  assert.not.match(site.exportOutput, /, over /);
});

test('a record by uuid downloads its family only; a list of another family downloads that family once', async () => {
  const catalog = await oracleCatalog(data);
  const data_files = () => site.host.asked.filter((path) => path.startsWith('/site/data/'));
  const before = data_files().length;
  const [one] = await workerAnswers(site.page, site.base, [
    { path: `/api/v1/locations/${catalog.store('locations').records[5]!.uuid}` },
  ]);
  assert.is(one!.status, 200);
  assert.ok(
    data_files()
      .slice(before)
      .every((path) => path.startsWith('/site/data/locations-')),
    data_files().join(' '),
  );
  const lists = await workerAnswers(site.page, site.base, [
    { path: '/api/v1/games?size=3' },
    { path: '/api/v1/games?page=2' },
  ]);
  assert.equal(
    lists.map((list) => list.status),
    [200, 200],
  );
  const games = data_files().filter((path) => path.startsWith('/site/data/games-'));
  assert.is(games.length, new Set(games).size, 'each part of the games once');
  assert.ok(games.length > 0);
  assert.not.ok(
    data_files().some((path) => /\/(actors|episodes|characters)-/.test(path)),
    'no other family',
  );
});

test('on 100,000 records the worker answers by uuid, filtered lists and drawn pictures as the server does', async () => {
  const catalog = await oracleCatalog(data);
  const actors = catalog.store('actors');
  const last = actors.records.at(-1)!;
  const found = await differences(site, [
    { path: `/api/v1/actors/${last.uuid}` },
    { path: `/api/v1/actors?nationality=${encodeURIComponent(String(last.nationality))}&sort=birth_date,desc&page=3` },
    { path: '/api/v1/episodes?q=signal&size=20&language=pt-BR' },
    { path: String(last.thumbnail) },
  ]);
  assert.equal(found, []);
});

test.run();
