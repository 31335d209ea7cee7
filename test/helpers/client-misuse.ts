import { createCatalogClient } from '../../clients/typescript/src/index.ts';

// What the typed client must refuse to compile, for test/typed-client.test.ts: each line under
// a `@ts-expect-error` is an error (tsc reports a directive with no error under it), and the
// test removes the directives to check that each error is the one its comment names (TSnnnn).
// Never run.

/** Misspellings and wrong values, one a statement. */
export async function misuse(): Promise<void> {
  const catalog = createCatalogClient({ baseUrl: 'http://localhost:3000' });
  // @ts-expect-error TS2561 a misspelt filter: actors have no `frist_name`
  await catalog.GET('/api/v1/actors', { params: { query: { frist_name: 'Iris' } } });
  // @ts-expect-error TS2322 a value the filter's operators do not take: `gender` is an integer
  await catalog.GET('/api/v1/actors', { params: { query: { gender: 'female' } } });
  // @ts-expect-error TS2322 an operator of text on a number: `duration` does not take `*v`
  await catalog.GET('/api/v1/episodes', { params: { query: { duration: '*long' } } });
  const { data: actor } = await catalog.GET('/api/v1/actors/{uuid}', { params: { path: { uuid: 'x' } } });
  // @ts-expect-error TS2551 a misspelt record field
  console.log(actor?.frist_name);
  // @ts-expect-error TS2353 a write body with a misspelt field
  await catalog.POST('/api/v1/locations', { body: { nmae: 'Pier', language: 'en-US' } });
  // @ts-expect-error TS2322 a write body without its required field
  await catalog.POST('/api/v1/locations', { body: { description: 'A pier with no name' } });
  // @ts-expect-error TS2345 a route the API does not have
  await catalog.GET('/api/v1/actor', {});
}
