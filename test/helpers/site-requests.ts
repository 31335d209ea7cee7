import fc from 'fast-check';
import type { Catalog } from '../../src/catalog/catalog.ts';
import { relationsOf, servedFields, sortableFields } from '../../src/catalog/families.ts';
import { sampleValues } from './scan.ts';
import type { Asked } from './site.ts';

const FAMILIES = ['actors', 'characters', 'episodes', 'seasons', 'locations', 'soundtracks', 'games'] as const;
const LANGUAGES = ['en-US', 'pt-BR', 'PT-br', 'xx-XX', 'pt'];
const ACCEPT = ['pt-BR', 'pt;q=0.9, en;q=0.8', 'fr, *;q=0.1', 'de', '*', 'pt-PT;q=1, en-US;q=0.5'];
/** `Accept` values choosing between JSON and CSV. */
const MEDIA = ['text/csv', 'text/csv;q=0.5, application/json', '*/*', 'application/json, text/csv', 'text/*'];
// 3,000 characters: over the 2,048 a target may have (a 414), under the 16 KB of headers Node reads (past which it answers 431).
const HOSTILE = [
  '__proto__',
  'toString',
  'constructor',
  '%zz',
  '=',
  ':',
  '!:',
  '*',
  'x'.repeat(3_000),
  '1e9',
  '-1',
  '',
];

/**
 * List requests drawn from the catalog's own fields and values: filters with each operator,
 * sort and order, paging, search, expand, fields, the language by parameter and by
 * `Accept-Language`, and wrong values of each (that must be 400s), seeded so a failure repeats.
 *
 * @example
 * listRequests(catalog, 200); // [{ path: '/api/v1/actors?gender=%3A1%2C2&size=3' }, …]
 */
export function listRequests(catalog: Catalog, count: number, seed = 53): Asked[] {
  const request = fc.constantFrom(...FAMILIES).chain((name) => {
    const store = catalog.store(name);
    const fields = [...store.family.fields.values()];
    const filter = fc.constantFrom(...fields).chain((field) => {
      const values = sampleValues(store, field, 'en-US', 20).map(String);
      const value = values.length ? fc.constantFrom(...values) : fc.constant('x');
      return fc.oneof(
        value.map((v) => [field.name, v]),
        value.map((v) => [field.name, `!${v}`]),
        fc.array(value, { minLength: 1, maxLength: 3 }).map((vs) => [field.name, `:${vs.join(',')}`]),
        fc.array(value, { minLength: 1, maxLength: 2 }).map((vs) => [field.name, `!:${vs.join(',')}`]),
        value.map((v) => [field.name, `*${v.slice(1, 4)}`]),
        value.map((v) => [field.name, `>=${v}`]),
        fc.constantFrom(...HOSTILE).map((v) => [field.name, v]),
      );
    });
    const word = fields
      .filter((field) => field.kind === 'string')
      .flatMap((field) => sampleValues(store, field, 'en-US', 5))
      .map((value) => String(value).split(/\s+/)[0]!);
    const option = (name: string, values: fc.Arbitrary<string>) =>
      fc.option(
        values.map((v) => [name, v]),
        { nil: undefined },
      );
    return fc
      .record({
        filters: fc.array(
          fc.oneof(
            filter,
            fc.constantFrom(...HOSTILE).map((k) => [k, '1']),
          ),
          { maxLength: 2 },
        ),
        page: option('page', fc.oneof(fc.integer({ min: 1, max: 5 }).map(String), fc.constantFrom(...HOSTILE))),
        size: option('size', fc.oneof(fc.integer({ min: 1, max: 60 }).map(String), fc.constantFrom('0', '1000', 'x'))),
        sort: option(
          'sort',
          fc.oneof(
            fc.constantFrom(...sortableFields(store.family)),
            fc.constantFrom(...sortableFields(store.family)).map((f) => `${f},desc`),
            fc.constantFrom(...HOSTILE),
          ),
        ),
        order: option('order', fc.constantFrom('asc', 'DESC', 'sideways')),
        q: option('q', fc.oneof(fc.constantFrom(...(word.length ? word : ['x'])), fc.constantFrom(...HOSTILE))),
        expand: option(
          'expand',
          fc.constantFrom(...relationsOf(store.family), 'nothing', relationsOf(store.family).join(',')),
        ),
        fields: option('fields', fc.constantFrom(...servedFields(store.family).slice(0, 4), 'uuid,href', 'nope')),
        language: option('language', fc.constantFrom(...LANGUAGES)),
        format: option('format', fc.constantFrom('csv', 'CSV', 'json', 'xml', '__proto__')),
        accept: fc.option(fc.constantFrom(...ACCEPT), { nil: undefined }),
        media: fc.option(fc.constantFrom(...MEDIA), { nil: undefined }),
      })
      .map(({ filters, accept, media, ...options }) => {
        const pairs = [...filters, ...Object.values(options).filter((pair) => pair !== undefined)] as [
          string,
          string,
        ][];
        const query = new URLSearchParams(pairs).toString();
        const asked: Asked = { path: `/api/v1/${name}${query ? `?${query}` : ''}` };
        if (accept || media)
          asked.headers = { ...(accept ? { 'accept-language': accept } : {}), ...(media ? { accept: media } : {}) };
        return asked;
      });
  });
  return fc.sample(request, { numRuns: count, seed });
}

/**
 * Reads of single records and their parts: every family's first and last record in every
 * language (by parameter and header), their translations and socials, expand and fields on
 * them, and uuids that are unknown, malformed or inherited names.
 */
export function recordRequests(catalog: Catalog): Asked[] {
  const asked: Asked[] = [];
  for (const name of FAMILIES) {
    const store = catalog.store(name);
    const base = `/api/v1/${name}`;
    for (const record of [store.records[0], store.records.at(-1)]) {
      if (!record) continue;
      const path = `${base}/${record.uuid}`;
      asked.push({ path }, { path: `${path}?language=pt-BR` }, { path, headers: { 'accept-language': 'pt' } });
      asked.push({ path: `${path}?expand=${relationsOf(store.family).join(',')}&language=pt-BR` });
      asked.push({ path: `${path}?fields=uuid,${servedFields(store.family).at(-1)}` });
      asked.push({ path: `${path.toUpperCase().replace('/API/V1/', '/api/v1/')}` });
      if (store.family.translation)
        for (const suffix of [
          'translations',
          'translations/pt-BR',
          'translations/PT-BR',
          'translations/xx',
          'translations/toString',
        ])
          asked.push({ path: `${path}/${suffix}` });
      if (name === 'actors')
        for (const suffix of ['socials', 'socials/__proto__', 'socials/nope'])
          asked.push({ path: `${path}/${suffix}` });
    }
    for (const uuid of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '__proto__', 'toString', '%E0%A4%A'])
      asked.push({ path: `${base}/${uuid}` });
  }
  asked.push(
    { path: '/api/v1/overview' },
    { path: '/api/v1/overview?language=pt-BR' },
    { path: `/api/v1/overview/${catalog.overview.uuid}` },
    { path: '/api/v1/overview/00000000-0000-4000-8000-000000000000' },
    { path: '/api/v1/overview/translations' },
    { path: '/api/v1/overview/translations/pt-BR' },
    { path: '/api' },
    { path: '/api/v1/nothing' },
    { path: '/api/v1/actors/' },
  );
  return asked;
}

/**
 * GraphQL operations by GET and by POST: nested links, filters, search, paging and sorting,
 * languages by argument and by `Accept-Language`, variables, and refusals (an unknown field,
 * a query too deep, wrong variables, a missing query, a wrong media type, a batch).
 */
export function graphqlRequests(catalog: Catalog): Asked[] {
  const actor = catalog.store('actors').records[0]!.uuid;
  const documents = [
    '{ overview { title data_count { actors episodes } } }',
    `{ actor(uuid: "${actor}") { first_name character { first_name actor { last_name } } seasons { title episodes { title } } } }`,
    '{ episodes(size: 3, page: 2, sort: title, order: desc) { page total_items items { title season { title } } } }',
    '{ actors(filter: { nationality: { eq: "Brazilian" } }, size: 5) { items { first_name nationality } } }',
    '{ episodes(q: "signal", language: "pt-BR") { items { title language } } }',
    '{ seasons { items { title episodes { title characters { first_name } } } } }',
    '{ nothing }',
    '{ a: actors { items { character { actor { character { actor { character { actor { character { first_name } } } } } } } } } }',
    '{ actor(uuid: "not-a-uuid") { first_name } }',
    '{ random_actor { first_name } }',
  ];
  const asked: Asked[] = [];
  const json = { 'content-type': 'application/json', accept: 'application/json' };
  for (const query of documents) {
    asked.push({ path: `/api/graphql?${new URLSearchParams({ query })}`, headers: { accept: 'application/json' } });
    asked.push({ path: '/api/graphql', method: 'POST', headers: json, body: JSON.stringify({ query }) });
  }
  asked.push(
    {
      path: '/api/graphql',
      method: 'POST',
      headers: { ...json, 'accept-language': 'pt-BR' },
      body: JSON.stringify({ query: documents[2] }),
    },
    {
      path: '/api/graphql',
      method: 'POST',
      headers: json,
      body: JSON.stringify({ query: 'query($u: ID!) { actor(uuid: $u) { first_name } }', variables: { u: actor } }),
    },
    {
      path: '/api/graphql',
      method: 'POST',
      headers: json,
      body: JSON.stringify({ query: 'query($u: ID!) { actor(uuid: $u) { first_name } }', variables: { u: 7 } }),
    },
    { path: '/api/graphql', method: 'POST', headers: json, body: JSON.stringify({ variables: {} }) },
    { path: '/api/graphql', method: 'POST', headers: json, body: JSON.stringify([{ query: documents[0] }]) },
    {
      path: '/api/graphql',
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ query: documents[0] }),
    },
    {
      path: '/api/graphql',
      method: 'POST',
      headers: json,
      body: '{"query": "{ overview { title } }", "__proto__": {"x": 1}}',
    },
    { path: '/api/graphql?query=%7B%20overview%20%7B%20title%20%7D%20%7D', headers: { accept: 'text/plain' } },
  );
  return asked;
}
