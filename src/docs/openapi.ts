import { FAMILIES } from '../catalog/families.ts';
import { FILTER_OPERATORS } from '../catalog/filter-operators.ts';
import { catalogPaths, familyTag, type DocumentExamples } from './catalog-paths.ts';
import { addWritePaths } from './write-paths.ts';
import { writeSchemas } from './write-schemas.ts';
import { GRAPHQL_SCHEMAS, graphqlPaths } from './graphql-paths.ts';
import { CHANGE_SCHEMAS, changePaths } from './change-paths.ts';
import { componentParameters, type ParameterOptions } from './parameters.ts';
import { sandboxPaths } from './sandbox-paths.ts';
import { SIMULATION_PARAMETERS, withSimulationParameters } from './simulation-parameters.ts';
import { referencePaths } from './reference-paths.ts';
import { COMPONENT_RESPONSES, HEADERS } from './responses.ts';
import { componentSchemas, type Json } from './schemas.ts';
import { picturePaths } from './picture-paths.ts';
import { clientPaths } from './client-paths.ts';
import { collectionPaths } from './collection-paths.ts';
import { accountPaths, metaPaths } from './service-paths.ts';
import { PACKAGE as pkg } from '../lib/package-info.ts';

// docs/routes.ts serves `GET /` with it (it lives with the path that documents it).

/** What the document says about this deployment and its catalog. */
export interface OpenApiOptions extends ParameterOptions {
  /** The series, from the overview: the document's title. */
  series?: string;
  /**
   * A uuid per family, from the loaded catalog: the example of every `{uuid}`, so "Try it out"
   * needs no typing; `social`, a social network of the actors' example.
   */
  examples?: DocumentExamples;
  /** Whether the write routes are served (`CATALOG_WRITES`); on unless false. */
  writes?: boolean;
  /** Whether classroom mode's sandboxes are on (their routes are served). */
  sandboxes?: boolean;
  /** Whether requests may ask for simulated latency and failures (`SIMULATE`, classroom mode). */
  simulation?: boolean;
}

/** The overview the reference page opens with (Markdown), short so the families show at once. */
function introduction(): string {
  const operators = FILTER_OPERATORS.map((o) => `\`${o.syntax}\``).join(' ');
  return [
    `${pkg.description}.`,
    '',
    `**Lists** answer a bare JSON array: \`page\` and \`size\` page it (\`X-Pagination-*\` and \`Link\` headers ` +
      `say where you are), \`sort\` and \`order\` sort it, and every other parameter filters on the field it ` +
      `names, with an operator at the start of the value (${operators}); each filter parameter says which its ` +
      `field takes and what they mean.`,
    '',
    '**Try it**: open an operation, press *Try it out*, then *Execute*; every `{uuid}` comes filled in with a ' +
      'record of this catalog. ' +
      'Reading needs no token: a bearer token (from Accounts) is optional and only raises your rate limit, so ' +
      'the reads here show no padlock.',
    '',
    '**Languages**: episodes, seasons, locations, games and the overview are served in the `language` asked for, ' +
      'else the best match of `Accept-Language`, else the default. ' +
      '**GraphQL**: the same catalog answers at [/api/graphql](/api/graphql), which opens GraphiQL in a browser. ' +
      '**Errors** all have one shape (`Error`). **Caching**: reads carry a strong `ETag`. **Rate limits**: ' +
      '`X-Rate-Limit-*` and `RateLimit` headers on every `/api` answer, 429 with `Retry-After` past the budget; ' +
      'a bearer token from Accounts raises it.',
    '',
    '**Clients**: every list also answers CSV for spreadsheets (`format=csv`); this server serves ' +
      '[a typed TypeScript client](/api/client.tgz) (`npm install http://<this server>/api/client.tgz`) and ' +
      'this API as a request collection for [Postman](/api/collections/postman.json), ' +
      '[Bruno](/api/collections/bruno.json) and [HTTP files](/api/collections/catalog.http).',
  ].join('\n');
}

/** The catalog's paths, with the write operations when writes are on. */
function catalogWithWrites(options: OpenApiOptions): Record<string, Json> {
  const paths = catalogPaths(options.examples);
  return options.writes === false ? paths : addWritePaths(paths, options.examples);
}

function schemasWithWrites(options: OpenApiOptions): Record<string, Json> {
  const schemas = componentSchemas();
  return {
    ...schemas,
    ...(options.writes === false ? {} : writeSchemas(schemas)),
    ...CHANGE_SCHEMAS,
    ...GRAPHQL_SCHEMAS,
  };
}

/** The paths, with `_delay` and `_fail` on every operation when the simulation is on. */
function simulatedIfOn(options: OpenApiOptions, paths: Record<string, Json>): Record<string, Json> {
  return options.simulation ? withSimulationParameters(paths) : paths;
}

/**
 * Operations that do not declare their own security need none: an explicit empty `security`,
 * so the reference shows public reads without a padlock. A token is still taken there (it
 * raises the rate limit), as the introduction says.
 */
function publicUnlessDeclared(paths: Record<string, Json>): Record<string, Json> {
  for (const item of Object.values(paths))
    for (const operation of Object.values(item) as Json[]) operation.security ??= [];
  return paths;
}

/**
 * The OpenAPI 3.1 document of the whole service, built from the JSON Schemas the loader
 * validates the data with (records, translations, filterable fields) and the accounts' body
 * schemas, so it cannot drift from what is checked and served.
 *
 * @example
 * const doc = buildOpenApi({ defaultLanguage: 'en-US', maxPageSize: 50, maxCsvRows: 100_000 });
 * Object.keys(doc.paths as object).length; // 55
 */
export function buildOpenApi(options: OpenApiOptions): Json {
  const families = [...FAMILIES.values()].map((family) => ({
    name: familyTag(family),
    description:
      family.name === 'overview'
        ? 'The series itself, with record counts per family, and its translations'
        : `A page filtered by any of ${family.fields.size} fields and sorted, one by uuid, a random ` +
          `one${family.translation ? ', and translations' : ''}`,
  }));
  return {
    openapi: '3.1.0',
    info: {
      title: options.series ? `${options.series}: catalog API` : 'Series catalog API',
      version: pkg.version,
      description: introduction(),
      license: { name: pkg.license, identifier: pkg.license },
      // A self-hosted copy has no project address of its own to give: whoever runs it is the contact.
      contact: { name: 'The operator of this server; the project itself: see its README' },
    },
    tags: [
      ...families,
      { name: 'Accounts', description: 'Sign up, sign in and delete; tokens identify clients to the rate limits' },
      ...(options.sandboxes
        ? [{ name: 'Sandboxes', description: "Classroom mode: each student's private changes to the catalog" }]
        : []),
      { name: 'Changes', description: 'What changed since a cursor: a page, or a live stream of server-sent events' },
      { name: 'GraphQL', description: 'The same catalog through one GraphQL endpoint, and its schema' },
      { name: 'Pictures', description: 'The pictures records point at (thumbnail, images), served by this server' },
      { name: 'Service', description: 'Service info, liveness and the route list' },
      { name: 'Reference', description: 'This page, its document and the typed client made from it' },
    ],
    // Relative: the document is right wherever the server answers, behind any proxy or host name.
    servers: [{ url: '/', description: 'The server that serves this document' }],
    paths: publicUnlessDeclared(
      simulatedIfOn(options, {
        ...metaPaths(),
        ...catalogWithWrites(options),
        ...accountPaths(),
        ...(options.sandboxes ? sandboxPaths() : {}),
        ...changePaths(),
        ...graphqlPaths(),
        ...picturePaths(),
        ...referencePaths(),
        ...clientPaths(),
        ...collectionPaths(),
      }),
    ),
    components: {
      schemas: schemasWithWrites(options),
      parameters: { ...componentParameters(options), ...(options.simulation ? SIMULATION_PARAMETERS : {}) },
      headers: HEADERS,
      responses: COMPONENT_RESPONSES,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'A token from `/api/v1/auth/register` or `/api/v1/auth/authenticate`',
        },
      },
    },
  };
}
