import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Scalar } from '../src/catalog/field-index.ts';
import { generateCatalog, writeCatalog } from '../scripts/lib/generate-catalog.ts';
import type { Condition } from '../src/catalog/filter.ts';
import type { FamilyStore } from '../src/catalog/store.ts';
import { oracleCatalog } from './helpers/catalog-oracle.ts';
import { json, startApp } from './helpers/http.ts';
import { listParams, scanQuery, scanSearch, scanSort, sampleValues, valuesAt } from './helpers/scan.ts';
import { words } from '../src/catalog/search.ts';

const dir = await mkdtemp(join(tmpdir(), 'catalog-http-'));
await writeCatalog(dir, generateCatalog({ actors: 2_000, seed: 11 }));
const server = await startApp({ DATA_DIR: dir, MAX_PAGE_SIZE: '50' });
const catalog = await oracleCatalog(dir);
const LANGUAGES = ['en-US', 'pt-BR'];
const FAMILIES = ['actors', 'characters', 'episodes', 'seasons', 'locations', 'soundtracks', 'games'] as const;

/** A condition in the query language, and the same condition as the scan evaluates it. */
function conditionFor(
  store: FamilyStore,
  language: string,
): fc.Arbitrary<{ param: [string, string]; condition: Condition }> {
  const fields = [...store.family.fields.values()].filter((f) => f.name !== 'href' || store.size > 0);
  return fc.constantFrom(...fields).chain((field) => {
    const value = fc.constantFrom(...sampleValues(store, field, language, 40));
    const text = (v: Scalar) => String(v);
    const name = field.name;
    const options: fc.Arbitrary<{ param: [string, string]; condition: Condition }>[] = [
      value.map((v) => ({ param: [name, `=${text(v)}`], condition: { field: name, op: 'eq', value: v } })),
      value.map((v) => ({ param: [name, `!${text(v)}`], condition: { field: name, op: 'ne', value: v } })),
      fc.uniqueArray(value, { minLength: 1, maxLength: 3 }).map((vs) => ({
        param: [name, `!:${vs.map(text).join(',')}`],
        condition: { field: name, op: 'none', values: vs },
      })),
      fc.uniqueArray(value, { minLength: 1, maxLength: 2 }).map((vs) => ({
        param: [name, `:${vs.map(text).join(',')}`],
        condition: { field: name, op: field.list ? 'all' : 'any', values: vs },
      })),
    ];
    if (field.kind === 'string') {
      const needle = value.map((v) => String(v).slice(1, 4).toUpperCase()).filter((n) => n.length > 0);
      options.push(
        needle.map((n) => ({ param: [name, `*${n}`], condition: { field: name, op: 'contains', value: n } })),
      );
      options.push(
        needle.map((n) => ({ param: [name, `!*${n}`], condition: { field: name, op: 'not-contains', value: n } })),
      );
    } else if (!field.list) {
      const op = fc.constantFrom('>', '>=', '<', '<=');
      options.push(
        fc.tuple(op, value).map(([o, v]) => ({
          param: [name, `${o}${text(v)}`],
          condition: {
            field: name,
            op: 'range',
            range: o[0] === '>' ? { min: v, minInclusive: o === '>=' } : { max: v, maxInclusive: o === '<=' },
          },
        })),
        fc.tuple(value, value).map(([a, b]) => ({
          param: [name, `${text(a)}::${text(b)}`],
          condition: { field: name, op: 'range', range: { min: a, max: b } },
        })),
      );
    }
    return fc.oneof(...options);
  });
}

/** Two word prefixes taken from one record's text, so that searches find something. */
function searchFor(store: FamilyStore, language: string): fc.Arbitrary<string[]> {
  const text = [...store.family.fields.values()].filter((f) => f.text);
  return fc
    .tuple(fc.nat(store.size - 1), fc.nat(), fc.nat(), fc.integer({ min: 2, max: 4 }))
    .map(([p, a, b, length]) => {
      const found = text.flatMap((f) => (valuesAt(store, p, f.name, language) ?? []).flatMap((v) => words(String(v))));
      if (found.length === 0) return ['zz'];
      return [...new Set([found[a % found.length]!.slice(0, length), found[b % found.length]!.slice(0, length)])];
    });
}

function requestFor(name: (typeof FAMILIES)[number]) {
  const store = catalog.store(name);
  const sortable = [...store.family.fields.values()].filter((f) => !f.list).map((f) => f.name);
  return fc.constantFrom(...LANGUAGES).chain((language) =>
    fc.record({
      language: fc.constant(language),
      search: fc.option(searchFor(store, language), { nil: undefined, freq: 2 }),
      filters: fc.array(conditionFor(store, language), { maxLength: 3 }),
      sort: fc.option(fc.record({ field: fc.constantFrom(...sortable), direction: fc.constantFrom('asc', 'DESC') }), {
        nil: undefined,
      }),
      page: fc.integer({ min: 1, max: 4 }),
      size: fc.integer({ min: 1, max: 50 }),
    }),
  );
}

test('random searches, filters, sorts and pages answer exactly what a scan finds', async () => {
  for (const name of FAMILIES) {
    const store = catalog.store(name);
    await fc.assert(
      fc.asyncProperty(requestFor(name), async ({ language, search, filters, sort, page, size }) => {
        const params = listParams(
          filters.map((f) => f.param),
          { q: search?.join(' '), language, page, size, sort },
        );
        const response = await server.get(`/api/v1/${name}?${params}`);
        assert.is(response.status, 200, `${name}?${params}`);
        const served = (await json<{ uuid: string }[]>(response)).map((r) => r.uuid);
        let expected = scanQuery(
          store,
          filters.map((f) => f.condition),
          language,
        );
        if (search) expected = scanSearch(store, expected, search, language);
        if (sort) {
          const info = store.family.fields.get(sort.field)!;
          const collation = info.translated ? language : catalog.defaultLanguage;
          expected = scanSort(
            store,
            expected,
            sort.field,
            sort.direction === 'asc' ? 'asc' : 'desc',
            language,
            collation,
          );
        }
        assert.is(response.headers.get('x-pagination-item-total'), String(expected.length), `${name}?${params}`);
        const pageOf = expected.slice((page - 1) * size, page * size).map((p) => store.records[p]!.uuid);
        assert.equal(served, pageOf, `${name}?${params}`);
      }),
      { numRuns: 150, seed: 20261122 },
    );
  }
});

type Row = Record<string, unknown>;

/** The record an href names, as the API serves it on its own. */
async function fetched(href: string, language: string): Promise<Row> {
  return json<Row>(await server.get(`${href}?language=${language}`));
}

test('expand and fields equal the plain answers put together: related records fetched, fields picked', async () => {
  const shaped = ['actors', 'characters', 'episodes', 'seasons'] as const;
  const arbitrary = fc.constantFrom(...shaped).chain((name) => {
    const family = catalog.store(name).family;
    const relations = [...family.fields.values()].filter((f) => f.relation).map((f) => f.name);
    const fields = [...family.fields.keys(), ...(family.translation ? ['language', 'languages'] : [])];
    return fc.record({
      name: fc.constant(name),
      language: fc.constantFrom(...LANGUAGES),
      expand: fc.subarray(relations),
      fields: fc.option(fc.subarray(fields, { minLength: 1, maxLength: 4 }), { nil: undefined }),
      page: fc.integer({ min: 1, max: 50 }),
    });
  });
  await fc.assert(
    fc.asyncProperty(arbitrary, async ({ name, language, expand, fields, page }) => {
      const base = `/api/v1/${name}?language=${language}&size=3&page=${page}`;
      const plain = await json<Row[]>(await server.get(base));
      const shape = `${expand.length ? `&expand=${expand.join(',')}` : ''}${fields ? `&fields=${fields.join(',')}` : ''}`;
      const response = await server.get(base + shape);
      assert.is(response.status, 200, base + shape);
      const served = await json<Row[]>(response);
      const expected: Row[] = [];
      for (const record of plain) {
        const whole: Row = { ...record };
        for (const relation of expand) {
          const value = record[relation];
          if (typeof value === 'string') whole[relation] = await fetched(value, language);
          if (Array.isArray(value))
            whole[relation] = await Promise.all(value.map((href: string) => fetched(href, language)));
        }
        expected.push(
          fields
            ? Object.fromEntries(Object.entries(whole).filter(([k]) => ['uuid', 'href', ...fields].includes(k)))
            : whole,
        );
      }
      assert.equal(served, expected, base + shape);
      if (plain[0]) {
        const one = await json<Row>(await server.get(`/api/v1/${name}/${plain[0].uuid}?language=${language}${shape}`));
        assert.equal(one, expected[0], 'the single-record endpoint shapes the same');
      }
    }),
    { numRuns: 60, seed: 8 },
  );
});

test.after(() => server.close());
test.run();
