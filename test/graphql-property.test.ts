import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { generateCatalog, writeCatalog } from '../scripts/lib/generate-catalog.ts';
import type { Scalar } from '../src/catalog/field-index.ts';
import type { FamilyStore } from '../src/catalog/store.ts';
import { oracleCatalog } from './helpers/catalog-oracle.ts';
import { json, startApp } from './helpers/http.ts';
import { listParams, sampleValues } from './helpers/scan.ts';

const dir = await mkdtemp(join(tmpdir(), 'catalog-graphql-'));
await writeCatalog(dir, generateCatalog({ actors: 1_000, seed: 23 }));
const server = await startApp({ DATA_DIR: dir, MAX_PAGE_SIZE: '50' });
const catalog = await oracleCatalog(dir);
const LANGUAGES = ['en-US', 'pt-BR'];
const FAMILIES = ['actors', 'characters', 'episodes', 'seasons', 'locations', 'soundtracks', 'games'] as const;

/** One filter written both ways: the query string's operator syntax and GraphQL's typed operator. */
type Both = { param: [string, string]; field: string; op: string; value: Scalar | Scalar[] };

function filterFor(store: FamilyStore, language: string): fc.Arbitrary<Both> {
  return fc.constantFrom(...store.family.fields.values()).chain((field) => {
    const value = fc.constantFrom(...sampleValues(store, field, language, 30));
    const name = field.name;
    const list = (vs: Scalar[]) => vs.map(String).join(',');
    const options: fc.Arbitrary<Both>[] = [
      value.map((v) => ({ param: [name, `=${v}`], field: name, op: field.list ? 'has' : 'eq', value: v })),
      value.map((v) => ({ param: [name, `!${v}`], field: name, op: field.list ? 'hasNot' : 'ne', value: v })),
      fc.uniqueArray(value, { minLength: 1, maxLength: 3 }).map((vs) => ({ param: [name, `!:${list(vs)}`], field: name, op: field.list ? 'hasNone' : 'notIn', value: vs })),
      fc.uniqueArray(value, { minLength: 1, maxLength: 2 }).map((vs) => ({ param: [name, `:${list(vs)}`], field: name, op: field.list ? 'hasAll' : 'in', value: vs })),
    ];
    if (field.kind === 'string') {
      const needle = value.map((v) => String(v).slice(1, 4)).filter((n) => n.length > 0);
      options.push(needle.map((n) => ({ param: [name, `*${n}`], field: name, op: 'contains', value: n })));
      options.push(needle.map((n) => ({ param: [name, `!*${n}`], field: name, op: 'notContains', value: n })));
    } else if (!field.list) {
      const ops = { '>': 'gt', '>=': 'gte', '<': 'lt', '<=': 'lte' } as const;
      options.push(fc.tuple(fc.constantFrom(...(Object.keys(ops) as (keyof typeof ops)[])), value).map(([o, v]) => ({ param: [name, `${o}${v}`], field: name, op: ops[o], value: v })));
      options.push(fc.tuple(value, value).map(([a, b]) => ({ param: [name, `${a}::${b}`], field: name, op: 'between', value: [a, b] })));
    }
    return fc.oneof(...options);
  });
}

function requestFor(name: (typeof FAMILIES)[number]) {
  const store = catalog.store(name);
  const sortable = [...store.family.fields.values()].filter((f) => !f.list).map((f) => f.name);
  return fc.constantFrom(...LANGUAGES).chain((language) =>
    fc.record({
      language: fc.constant(language),
      q: fc.option(fc.constantFrom('a', 'ma', 'the', 'zz', 'son'), { nil: undefined, freq: 3 }),
      filters: fc.array(filterFor(store, language), { maxLength: 3 }),
      sort: fc.option(fc.record({ field: fc.constantFrom(...sortable), direction: fc.constantFrom('asc' as const, 'desc' as const) }), { nil: undefined }),
      page: fc.integer({ min: 1, max: 4 }),
      size: fc.integer({ min: 1, max: 50 }),
    }),
  );
}

/** The `filter` argument's object: the typed operators of each field, values as GraphQL takes them. */
function filterArgument(filters: Both[], store: FamilyStore): Record<string, Record<string, Scalar | Scalar[]>> {
  const argument: Record<string, Record<string, Scalar | Scalar[]>> = {};
  for (const { field, op, value } of filters) {
    const numeric = ['integer', 'number'].includes(store.family.fields.get(field)!.kind);
    const typed = (v: Scalar) => (numeric && op !== 'contains' && op !== 'notContains' ? Number(v) : String(v));
    (argument[field] ??= {})[op] = Array.isArray(value) ? value.map(typed) : typed(value);
  }
  return argument;
}

test('random filters, searches, sorts, pages and languages: the GraphQL list and the REST list answer the same records in the same order', async () => {
  for (const name of FAMILIES) {
    const store = catalog.store(name);
    await fc.assert(
      fc.asyncProperty(requestFor(name), async ({ language, q, filters, sort, page, size }) => {
        // GraphQL takes one value per operator and field: keep the last of a repeated pair on both sides.
        const unique = [...new Map(filters.map((f) => [`${f.field} ${f.op}`, f])).values()];
        const params = listParams(unique.map((f) => f.param), { q, language, page, size, sort });
        const rest = await server.get(`/api/v1/${name}?${params}`);
        assert.is(rest.status, 200, `${name}?${params}`);
        const expected = (await json<{ uuid: string }[]>(rest)).map((r) => r.uuid);

        const query = `query($filter: ${store.family.singular[0]!.toUpperCase()}${store.family.singular.slice(1)}Filter, $q: String, $page: Int, $size: Int, $language: String${sort ? ', $sort: ' + store.family.singular[0]!.toUpperCase() + store.family.singular.slice(1) + 'SortField, $order: Order' : ''}) {
          list: ${name}(filter: $filter, q: $q, page: $page, size: $size, language: $language${sort ? ', sort: $sort, order: $order' : ''}) { total_items items { uuid } }
        }`;
        const variables = { filter: filterArgument(unique, store), q: q ?? null, page, size, language, ...(sort ? { sort: sort.field, order: sort.direction } : {}) };
        const response = await fetch(`${server.url}/api/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ query, variables }) });
        const body = await json<{ data?: { list: { total_items: number; items: { uuid: string }[] } }; errors?: unknown[] }>(response);
        assert.not.ok(body.errors, `${name}?${params}: ${JSON.stringify(body.errors)}`);
        assert.is(body.data!.list.total_items, Number(rest.headers.get('x-pagination-item-total')), `${name}?${params}`);
        assert.equal(body.data!.list.items.map((r) => r.uuid), expected, `${name}?${params}`);
      }),
      { numRuns: 60, seed: 20261124 },
    );
  }
});

test.after(() => server.close());
test.run();
