// The import rules of src/ (see CONTRIBUTING.md, "Architecture"), checked by `npm test`.
// Layers from the bottom up; a file may import its own layer or a lower one, never a higher
// one, and nothing may import in a circle.
const LAYERS = [
  ['lib', 'src/lib/'],
  ['config', 'src/config/'],
  ['catalog', 'src/catalog/'],
  ['reads', 'src/reads/'],
  ['accounts', 'src/accounts/'],
  ['catalog-writes', 'src/catalog-writes/'],
  ['changes', 'src/changes/'],
  ['limits', 'src/limits/'],
  ['served', 'src/served/'],
  ['http', 'src/http/'],
  ['graphql', 'src/graphql/'],
  ['docs', 'src/docs/'],
  ['site', 'src/site/'],
  ['app', 'src/(app|main|parts|routes|service)\\.ts$'],
];

const pathOf = (name) => `^${LAYERS.find(([layer]) => layer === name)[1]}`;
const upward = LAYERS.flatMap(([name], index) => {
  const above = LAYERS.slice(index + 1).map(([layer]) => layer);
  return above.length === 0
    ? []
    : [
        {
          name: `${name}-imports-upward`,
          comment: `${name} may not import ${above.join(', ')}`,
          severity: 'error',
          from: { path: pathOf(name) },
          to: { path: above.map(pathOf) },
        },
      ];
});
// accounts and limits stand side by side: the order above keeps accounts from limits, this keeps limits from accounts.
// So do http and graphql, two faces of the catalog: the order keeps http from graphql, this keeps graphql from http's
// routes (it may use http's helpers: sending a cached answer, reading the language, the JSON body).
const siblings = [
  {
    name: 'limits-imports-accounts',
    comment: 'limits and accounts are siblings',
    severity: 'error',
    from: { path: pathOf('limits') },
    to: { path: pathOf('accounts') },
  },
  {
    name: 'limits-imports-catalog-writes',
    comment: 'limits and catalog-writes are siblings',
    severity: 'error',
    from: { path: pathOf('limits') },
    to: { path: pathOf('catalog-writes') },
  },
  {
    name: 'catalog-writes-imports-accounts',
    comment: 'the stores of accounts and of catalog writes are siblings',
    severity: 'error',
    from: { path: pathOf('catalog-writes') },
    to: { path: pathOf('accounts') },
  },
  {
    name: 'graphql-imports-rest-routes',
    comment: 'graphql and the REST routes are siblings',
    severity: 'error',
    from: { path: pathOf('graphql') },
    to: { path: '^src/http/routes/' },
  },
];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Imports may not form a circle',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'src-imports-outside',
      comment: 'The server runs src/ alone: no scripts, tests or data',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(scripts|test)/' },
    },
    ...upward,
    ...siblings,
    {
      name: 'browser-reaches-node',
      comment:
        "The static site's worker and page script run in a browser: they import no Node built-in (what they import further down is held to it by their browser build, which fails on one)",
      severity: 'error',
      from: { path: '^src/site/(worker|page)/' },
      to: { dependencyTypes: ['core'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
