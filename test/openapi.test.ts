import { ChangeFeed } from '../src/changes/feed.ts';
import { get } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CREDENTIALS_BODY_SCHEMA, REGISTER_BODY_SCHEMA } from '../src/accounts/schemas.ts';
import { FAMILIES } from '../src/catalog/families.ts';
import { FILTER_OPERATORS } from '../src/catalog/filter-operators.ts';
import { createLogger } from '../src/config/logger.ts';
import { createApp } from '../src/app.ts';
import { EXPOSED_HEADERS } from '../src/http/headers.ts';
import { relationsOf, servedFields, sortableFields } from '../src/catalog/families.ts';
import type { AccountService } from '../src/accounts/service.ts';
import type { Curator } from '../src/served/curator.ts';
import { ServedCatalog } from '../src/served/served-catalog.ts';
import { oracleCatalog } from './helpers/catalog-oracle.ts';
import { ROOT } from './helpers/spawn.ts';
import { startApp } from './helpers/http.ts';
import { appRoutes, documentedRoutes, loadDocument, operation, type Json } from './helpers/openapi.ts';

const server = await startApp({ MAX_PAGE_SIZE: '40' });
const catalog = await oracleCatalog(`${ROOT}data`);
const { doc, resolved, valid } = await loadDocument(server);

test('the document is valid OpenAPI 3.1', () => {
  assert.is(doc.openapi, '3.1.0');
  assert.ok(valid.valid, JSON.stringify(valid.errors, null, 2));
});

test('it is served as exactly application/json with an ETag, and 304 once the client has it', async () => {
  const first = await server.get('/api/openapi.json', { 'Accept-Encoding': 'identity' });
  assert.is(first.status, 200);
  assert.is(first.headers.get('content-type'), 'application/json');
  const etag = first.headers.get('etag');
  assert.match(String(etag), /^"[\w-]+"$/);
  // Through node:http: fetch adds `Cache-Control: no-cache` to conditional requests, which forbids a 304.
  const status = await new Promise<number>((resolve, reject) => {
    get(
      `${server.url}/api/openapi.json`,
      { headers: { 'If-None-Match': etag!, 'Accept-Encoding': 'identity' } },
      (res) => {
        res.resume();
        resolve(res.statusCode!);
      },
    ).on('error', reject);
  });
  assert.is(status, 304);
});

test('it documents every route the router has, and no route the router lacks', () => {
  // The router the compiled server runs is built from these sources, wired by createApp; routes only register here.
  const served = new ServedCatalog(catalog, 2 ** 20);
  const app = createApp(server.config, {
    served,
    feed: new ChangeFeed(),
    log: createLogger({ level: 'silent', format: 'text' }),
    accounts: {} as AccountService,
    curator: {} as Curator,
  });
  const routes = appRoutes(app).sort();
  const documented = documentedRoutes(doc).sort();
  assert.ok(routes.length > 40, `${routes.length} routes`);
  assert.equal(
    routes.filter((r) => !documented.includes(r)),
    [],
    'routes missing from the document',
  );
  assert.equal(
    documented.filter((r) => !routes.includes(r)),
    [],
    'documented routes the router lacks',
  );
  assert.is(new Set(routes).size, routes.length, 'no route twice');
});

test('operation ids are unique and every path parameter is declared', () => {
  const ids = new Set<string>();
  for (const [path, item] of Object.entries(resolved.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      assert.not.ok(ids.has(op.operationId), `${op.operationId} twice`);
      ids.add(op.operationId);
      const declared = (op.parameters ?? [])
        .filter((p: Json) => p.in === 'path')
        .map((p: Json) => p.name)
        .sort();
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      assert.equal(declared, templated, `${method} ${path}`);
    }
  }
});

test('each family list has paging, sort, order, format, its language, search, shape and one typed filter per field', () => {
  for (const family of FAMILIES.values()) {
    if (family.name === 'overview') continue;
    const parameters = operation(resolved, 'GET', `/api/v1/${family.name}`).parameters as Json[];
    const names = parameters.map((p) => p.name);
    const shape = relationsOf(family).length ? ['expand', 'fields'] : ['fields'];
    const expected = [
      'page',
      'size',
      'sort',
      'order',
      'format',
      ...(family.translation ? ['language', 'Accept-Language'] : []),
      'q',
      ...shape,
      ...family.fields.keys(),
    ];
    assert.equal(names, expected, family.name);
    const expand = parameters.find((p) => p.name === 'expand');
    if (expand) assert.equal(expand['x-values'], relationsOf(family));
    assert.equal(parameters.find((p) => p.name === 'fields')!['x-values'], servedFields(family));
    for (const path of [`/api/v1/${family.name}/{uuid}`, `/api/v1/${family.name}/random`]) {
      const single = (operation(resolved, 'GET', path).parameters as Json[]).map((p) => p.name);
      for (const name of shape) assert.ok(single.includes(name), `${path} takes ${name}`);
    }
    assert.equal(parameters.find((p) => p.name === 'size')!.schema, { type: 'integer', minimum: 1, default: 10 });
    assert.match(parameters.find((p) => p.name === 'size')!.description, /Above 40/);
    const sort = parameters.find((p) => p.name === 'sort')!;
    for (const field of sortableFields(family)) assert.match(sort.description, `\`${field}\``);
    for (const field of family.fields.values()) {
      const filter = parameters.find((p) => p.name === field.name)!;
      const operators = FILTER_OPERATORS.filter((o) => o.applies(field)).map((o) => o.syntax);
      assert.equal(filter['x-filter'].type, field.kind, `${family.name}.${field.name}`);
      assert.equal(filter['x-filter'].operators, operators);
      for (const syntax of operators)
        assert.ok(filter.description.includes(`\`${syntax}\``), `${field.name} describes ${syntax}`);
      if (field.relation) {
        const target = field.list ? field.relation : `an? ${FAMILIES.get(field.relation)!.singular}`;
        assert.match(
          filter.description,
          new RegExp(`hrefs? of ${target} \\(or (its|their) bare uuids?\\)`),
          `${family.name}.${field.name}`,
        );
      }
    }
  }
});

test('record schemas are the data schemas, with translated fields, language and languages merged', () => {
  const schemas = resolved.components.schemas as Json;
  for (const family of FAMILIES.values()) {
    const name = family.singular[0]!.toUpperCase() + family.singular.slice(1);
    const served = schemas[name];
    for (const [field, schema] of Object.entries(family.schema.properties!))
      assert.equal(served.properties[field], schema, `${name}.${field}`);
    for (const field of family.translation?.fields ?? []) assert.ok(field in served.properties, `${name}.${field}`);
    if (family.translation) {
      assert.ok(served.required.includes('language') && served.required.includes('languages'), name);
      assert.not.ok(
        family.translation.parentKey in served.properties,
        `${name} has no ${family.translation.parentKey}`,
      );
      assert.ok(schemas[`${name}Translation`], `${name}Translation`);
    }
  }
  assert.ok('data_count' in schemas.Overview.properties);
});

test('the account endpoints take the bodies the service validates, and name the bearer scheme', () => {
  assert.equal(resolved.components.securitySchemes.bearerAuth, {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'A token from `/api/v1/auth/register` or `/api/v1/auth/authenticate`',
  });
  const bodies = {
    register: REGISTER_BODY_SCHEMA,
    authenticate: CREDENTIALS_BODY_SCHEMA,
    delete: CREDENTIALS_BODY_SCHEMA,
  };
  for (const [name, schema] of Object.entries(bodies)) {
    const op = operation(resolved, 'POST', `/api/v1/auth/${name}`);
    assert.equal(op.requestBody.content['application/json'].schema, schema, name);
    assert.ok(
      op.security.some((s: Json) => 'bearerAuth' in s),
      `${name} names bearerAuth`,
    );
  }
});

test('every error answer has the one Error schema; every header a browser may read is documented', () => {
  const error = resolved.components.schemas.Error;
  for (const [path, item] of Object.entries(resolved.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      for (const [status, answer] of Object.entries(op.responses as Json)) {
        if (Number(status) < 400) continue;
        const schema = answer.content['application/json'].schema;
        // GraphQL refuses a query in its own shape (GraphQL over HTTP); the service's refusals there keep the Error shape.
        if (path.startsWith('/api/graphql') && schema.anyOf)
          assert.ok(schema.anyOf.includes(error), `${method} ${path} ${status}`);
        else assert.equal(schema, error, `${method} ${path} ${status}`);
      }
    }
  }
  const headers = Object.keys(resolved.components.headers);
  for (const name of EXPOSED_HEADERS.filter((h) => h !== 'Content-Length')) assert.ok(headers.includes(name), name);
});

test.after(() => server.close());
test.run();
