import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { generateCatalog, writeCatalog } from '../scripts/lib/generate-catalog.ts';
import type { FieldInfo } from '../src/catalog/families.ts';
import type { Scalar } from '../src/catalog/field-index.ts';
import type { Condition } from '../src/catalog/filter.ts';
import { graphqlOperators } from '../src/catalog/filter-operators.ts';
import { parseFilter } from '../src/catalog/filter-syntax.ts';
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

/** The values a condition was made from, in the order an operator takes them. */
function valuesOf(condition: Condition): Scalar[] {
  if ('values' in condition) return [...condition.values];
  if ('value' in condition) return [condition.value];
  return [condition.range.min, condition.range.max].filter((v): v is Scalar => v !== undefined);
}

/**
 * GraphQL's name for what a query-string filter asks, found in the catalog's one table of
 * operators: the GraphQL operator of the field that makes the same condition.
 */
function graphqlName(field: FieldInfo, raw: string): string {
  const parsed = parseFilter(field, raw);
  if ('error' in parsed) throw new Error(parsed.error);
  const same = [...graphqlOperators(field)].find(
    ([, operator]) =>
      JSON.stringify(operator.condition(field, valuesOf(parsed.condition))) === JSON.stringify(parsed.condition),
  );
  if (!same) throw new Error(`no GraphQL operator of ${field.name} for '${raw}'`);
  return same[0];
}

/** One filter written both ways: the query string's operator syntax and GraphQL's typed operator. */
type Both = { param: [string, string]; field: string; op: string; value: Scalar | Scalar[] };

function filterFor(store: FamilyStore, language: string): fc.Arbitrary<Both> {
  return fc.constantFrom(...store.family.fields.values()).chain((field) => {
    const value = fc.constantFrom(...sampleValues(store, field, language, 30));
    const name = field.name;
    const list = (vs: Scalar[]) => vs.map(String).join(',');
    const both = (raw: string, value: Scalar | Scalar[]): Both => ({
      param: [name, raw],
      field: name,
      op: graphqlName(field, raw),
      value,
    });
    const options: fc.Arbitrary<Both>[] = [
      value.map((v) => both(`=${v}`, v)),
      value.map((v) => both(`!${v}`, v)),
      fc.uniqueArray(value, { minLength: 1, maxLength: 3 }).map((vs) => both(`!:${list(vs)}`, vs)),
      fc.uniqueArray(value, { minLength: 1, maxLength: 2 }).map((vs) => both(`:${list(vs)}`, vs)),
    ];
    if (field.kind === 'string') {
      const needle = value.map((v) => String(v).slice(1, 4)).filter((n) => n.length > 0);
      options.push(needle.map((n) => both(`*${n}`, n)));
      options.push(needle.map((n) => both(`!*${n}`, n)));
    } else if (!field.list) {
      options.push(fc.tuple(fc.constantFrom('>', '>=', '<', '<='), value).map(([o, v]) => both(`${o}${v}`, v)));
      options.push(fc.tuple(value, value).map(([a, b]) => both(`${a}::${b}`, [a, b])));
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
      sort: fc.option(
        fc.record({ field: fc.constantFrom(...sortable), direction: fc.constantFrom('asc' as const, 'desc' as const) }),
        { nil: undefined },
      ),
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
        const params = listParams(
          unique.map((f) => f.param),
          { q, language, page, size, sort },
        );
        const rest = await server.get(`/api/v1/${name}?${params}`);
        assert.is(rest.status, 200, `${name}?${params}`);
        const expected = (await json<{ uuid: string }[]>(rest)).map((r) => r.uuid);

        const query = `query($filter: ${store.family.singular[0]!.toUpperCase()}${store.family.singular.slice(1)}Filter, $q: String, $page: Int, $size: Int, $language: String${sort ? ', $sort: ' + store.family.singular[0]!.toUpperCase() + store.family.singular.slice(1) + 'SortField, $order: Order' : ''}) {
          list: ${name}(filter: $filter, q: $q, page: $page, size: $size, language: $language${sort ? ', sort: $sort, order: $order' : ''}) { total_items items { uuid } }
        }`;
        const variables = {
          filter: filterArgument(unique, store),
          q: q ?? null,
          page,
          size,
          language,
          ...(sort ? { sort: sort.field, order: sort.direction } : {}),
        };
        const response = await fetch(`${server.url}/api/graphql`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ query, variables }),
        });
        const body = await json<{
          data?: { list: { total_items: number; items: { uuid: string }[] } };
          errors?: unknown[];
        }>(response);
        assert.not.ok(body.errors, `${name}?${params}: ${JSON.stringify(body.errors)}`);
        assert.is(
          body.data!.list.total_items,
          Number(rest.headers.get('x-pagination-item-total')),
          `${name}?${params}`,
        );
        assert.equal(
          body.data!.list.items.map((r) => r.uuid),
          expected,
          `${name}?${params}`,
        );
      }),
      { numRuns: 60, seed: 20261124 },
    );
  }
});

test.after(() => server.close());
test.run();
