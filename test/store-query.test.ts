import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Catalog } from '../src/catalog/catalog.ts';
import type { Scalar } from '../src/catalog/field-index.ts';
import { generateCatalog, writeCatalog } from '../scripts/lib/generate-catalog.ts';
import { loadCatalog } from '../src/catalog/load.ts';
import { filterPositions, type Condition } from '../src/catalog/filter.ts';
import { sortPositions } from '../src/catalog/query.ts';
import { FamilyStore } from '../src/catalog/store.ts';
import type { CatalogRecord, Translation } from '../src/catalog/types.ts';
import { scanQuery, scanSort, valuesAt } from './helpers/scan.ts';

const dir = await mkdtemp(join(tmpdir(), 'catalog-10k-'));
await writeCatalog(dir, generateCatalog({ actors: 10_000, seed: 42 }));
const loaded = await loadCatalog(dir, { defaultLanguage: 'en-US' });
if (!loaded.ok) throw new Error(`generated catalog refused: ${loaded.problems[0]?.message}`);
const catalog: Catalog = loaded.catalog;

/** Values that occur in the family (and one that never does), to build conditions from. */
function sampleValues(store: FamilyStore, field: string, language: string): Scalar[] {
  const values: Scalar[] = [];
  for (let p = 0; p < store.size; p += 97) values.push(...(valuesAt(store, p, field, language) ?? []));
  const kind = store.family.fields.get(field)!.kind;
  values.push(kind === 'integer' || kind === 'number' ? -1 : kind === 'date' ? '1800-01-01' : 'no such value');
  return values;
}

function conditionFor(store: FamilyStore, language: string): fc.Arbitrary<Condition> {
  const fields = [...store.family.fields.values()];
  return fc.constantFrom(...fields).chain((info) => {
    const value = fc.constantFrom(...sampleValues(store, info.name, language));
    const ops: fc.Arbitrary<Condition>[] = [
      value.map((v) => ({ field: info.name, op: 'eq' as const, value: v })),
      value.map((v) => ({ field: info.name, op: 'ne' as const, value: v })),
      fc
        .array(value, { minLength: 1, maxLength: 3 })
        .map((vs) => ({ field: info.name, op: 'any' as const, values: vs })),
      fc
        .array(value, { minLength: 1, maxLength: 3 })
        .map((vs) => ({ field: info.name, op: 'none' as const, values: vs })),
      fc
        .array(value, { minLength: 1, maxLength: 2 })
        .map((vs) => ({ field: info.name, op: 'all' as const, values: vs })),
    ];
    if (info.kind === 'string') {
      const needle = value.chain((v) =>
        fc.nat(Math.max(0, String(v).length - 1)).map((start) =>
          String(v)
            .slice(start, start + 3)
            .toUpperCase(),
        ),
      );
      ops.push(needle.map((v) => ({ field: info.name, op: 'contains' as const, value: v })));
      ops.push(needle.map((v) => ({ field: info.name, op: 'not-contains' as const, value: v })));
    } else {
      ops.push(
        fc
          .tuple(value, value, fc.boolean(), fc.boolean(), fc.constantFrom('min', 'max', 'both'))
          .map(([a, b, minInclusive, maxInclusive, which]) => {
            const [min, max] = a < b ? [a, b] : [b, a];
            const range =
              which === 'min'
                ? { min, minInclusive }
                : which === 'max'
                  ? { max, maxInclusive }
                  : { min, max, minInclusive, maxInclusive };
            return { field: info.name, op: 'range' as const, range };
          }),
      );
    }
    return fc.oneof(...ops);
  });
}

for (const name of ['actors', 'episodes', 'locations', 'games', 'seasons', 'soundtracks'] as const) {
  test(`${name}: indexed queries and sorts equal a straightforward scan`, () => {
    const store = catalog.store(name);
    const languages = catalog.languages;
    fc.assert(
      fc.property(
        fc.constantFrom(...languages).chain((language) =>
          fc.record({
            language: fc.constant(language),
            conditions: fc.array(conditionFor(store, language), { minLength: 0, maxLength: 3 }),
            sort: fc.option(
              fc.constantFrom(...[...store.family.fields.values()].filter((f) => !f.list).map((f) => f.name)),
            ),
            direction: fc.constantFrom('asc' as const, 'desc' as const),
          }),
        ),
        ({ language, conditions, sort, direction }) => {
          const indexed = filterPositions(store, conditions, language);
          const scanned = scanQuery(store, conditions, language);
          assert.equal([...indexed], scanned, JSON.stringify(conditions));
          if (sort) {
            const info = store.family.fields.get(sort)!;
            const collation = info.translated ? language : catalog.defaultLanguage;
            assert.equal(
              [...sortPositions(store, indexed, sort, direction, language)],
              scanSort(store, scanned, sort, direction, language, collation),
              `sort ${sort} ${direction}`,
            );
          }
        },
      ),
      { numRuns: 150, seed: 20261122 },
    );
  });
}

test('a family of 10,000 actors is what the generator promised', () => {
  assert.is(catalog.store('actors').size, 10_000);
  assert.is(catalog.store('episodes').size, 10_000);
});

test('a store patched by a write holds what a store built from the same rows holds', () => {
  const store = catalog.store('episodes');
  const inSpanish = store.records.findIndex((_, p) => store.ownTranslation(p, 'es-ES') !== undefined);
  assert.ok(inSpanish >= 0, 'an episode translated into es-ES');
  const [replaced, translated, untranslated] = [store.records[5]!, store.records[7]!, store.records[inSpanish]!];
  const added = {
    ...store.records[0]!,
    uuid: '00000000-0000-4000-8000-000000000001',
    thumbnail: '/images/episodes/00000000-0000-4000-8000-000000000001.svg',
  };
  const records = new Map<string, CatalogRecord>([
    [replaced.uuid, { ...replaced, duration: 1 }],
    [added.uuid, added],
  ]);
  const rows = new Map<string, Map<string, Translation | null>>([
    [
      'pt-BR',
      new Map([
        [translated.uuid, { title: 'Título novo' }],
        [added.uuid, { title: 'Acrescentado' }],
      ]),
    ],
    ['es-ES', new Map([[untranslated.uuid, null]])],
  ]);
  const patched = store.patched(records, rows);

  const list = [...store.records.map((record) => records.get(record.uuid) ?? record), added];
  const columns = new Map(
    store.languages.map((language) => [
      language,
      list.map((record, p) =>
        rows.get(language)?.has(record.uuid)
          ? (rows.get(language)!.get(record.uuid) ?? undefined)
          : p < store.size
            ? store.ownTranslation(p, language)
            : undefined,
      ),
    ]),
  );
  const built = new FamilyStore(store.family, list, columns, store.languages, store.defaultLanguage);
  assert.equal(patched.records, built.records);
  for (const [p, record] of list.entries()) {
    assert.is(patched.position(record.uuid), p);
    assert.equal(patched.translationsOf(p), built.translationsOf(p), `translations of position ${p}`);
  }
  // Generated catalogs name pictures of their own: without them, the added record is the one that does.
  const bare = new FamilyStore(
    store.family,
    store.records.map(({ thumbnail: _t, images: _i, ...record }) => record as CatalogRecord),
    new Map(),
    store.languages,
    store.defaultLanguage,
  );
  assert.is(bare.namesPictures, false);
  assert.is(
    bare.patched(new Map([[added.uuid, added]]), new Map()).namesPictures,
    true,
    'the added record names a picture of its own',
  );
  assert.is(store.position(added.uuid), undefined, 'the store patched is left as it was');
  assert.is(store.ownTranslation(7, 'pt-BR')?.title, store.translation(7, 'pt-BR').fields.title);
});

test.run();
