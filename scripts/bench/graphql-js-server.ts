// The GraphQL baseline: the same schema and resolvers run by plain graphql-js in a bare
// node:http handler, each request parsed, validated and executed (no document or answer cache).
// Usage: node --import tsx scripts/bench/graphql-js-server.ts DATA_DIR
import { createServer } from 'node:http';
import { graphql } from 'graphql';
import { loadCatalog } from '../../src/catalog/load.ts';
import { Pacer } from '../../src/graphql/pacer.ts';
import { catalogSchema } from '../../src/graphql/schema.ts';
import type { GraphQLContext } from '../../src/graphql/context.ts';

const loaded = await loadCatalog(process.argv[2]!, { defaultLanguage: 'en-US' });
if (!loaded.ok) throw new Error(`${process.argv[2]} does not load`);
const { catalog } = loaded;
const schema = catalogSchema();

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', async () => {
    const params =
      req.method === 'POST'
        ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { query: string; variables?: Record<string, unknown> })
        : { query: new URL(req.url!, 'http://x').searchParams.get('query') ?? '' };
    const result = await graphql({
      schema,
      source: params.query,
      variableValues: params.variables ?? null,
      contextValue: {
        catalog,
        preferred: catalog.defaultLanguage,
        maxPageSize: 50,
        origin: `http://${req.headers.host}`,
        pacer: new Pacer(5),
        reached: new Map(),
        mutations: {},
      } satisfies GraphQLContext,
    });
    const body = JSON.stringify(result);
    res
      .writeHead(result.errors ? 400 : 200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      })
      .end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  console.log(`listening on http://127.0.0.1:${port}`);
});
