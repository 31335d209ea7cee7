// npm run build: bundles the server (src/main.ts) into one file, dist/main.js with its source
// map, and copies the reference page's own files beside it. `npm start` runs it first with
// --if-stale: it builds only when dist/ is missing or was built from other sources, so it also
// works after `npm prune --omit=dev` (without esbuild) on a current build. Plain JavaScript: it
// must run where neither tsx nor esbuild is installed. Type checking is `npm test`'s (tsc).
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildClientPackage } from './client-package.mjs';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
const stamp = join(dist, '.build-stamp');
/** Everything the build reads: the sources, this script, the validator generator and the installed versions of the bundled packages. */
const inputs = [
  'src',
  'scripts/build.mjs',
  'scripts/lib/standalone-validators.ts',
  'scripts/client-package.mjs',
  'clients/typescript',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
];
/** Every file at or below `path`, in a stable order; none when it is missing (a pruned copy: then the build does not match). */
function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

/** A hash of `part` of every file of `list`, named by its path. */
function hashOf(part, list = inputs) {
  const hash = createHash('sha256');
  for (const file of list.flatMap((input) => files(join(root, input))))
    hash
      .update(`${relative(root, file)}\0`)
      .update(part(file))
      .update('\0');
  return hash.digest('hex');
}

/**
 * Whether dist/ was built from the inputs as they are. Contents decide, not modification
 * times: a checkout, `docker build`'s COPY or a copy without preserved times changes the times
 * of unchanged sources, and a build must not be thought stale where esbuild is pruned. The
 * contents are read only when a size or time differs from the build's: `npm start` then
 * costs a `stat` per file.
 */
function isCurrent(recorded, sizesAndTimes) {
  if (!recorded) return false;
  return recorded.sizesAndTimes === sizesAndTimes || recorded.contents === hashOf((file) => readFileSync(file));
}

const sizesAndTimes = hashOf((file) => {
  const { size, mtimeMs } = statSync(file);
  return `${size} ${mtimeMs}`;
});
/** What the last build recorded of its inputs; none without a build, or from a build of another kind. */
function recordedInputs() {
  try {
    return JSON.parse(readFileSync(stamp, 'utf8'));
  } catch {
    return undefined;
  }
}

const recorded = recordedInputs();
if (process.argv.includes('--if-stale') && isCurrent(recorded, sizesAndTimes)) process.exit(0);

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  console.error(
    'dist/ is missing or was built from other sources, and esbuild is not installed to build it: run `npm ci` then `npm run build`',
  );
  process.exit(1);
}
console.error('building dist/ from src/ (esbuild)');
// Built from scratch beside dist/, then swapped in whole: a server still running from dist/
// (an upgrade in place) never reads a half-built folder.
const next = join(root, 'dist.next');
const previous = join(root, 'dist.previous');
rmSync(next, { recursive: true, force: true });

/**
 * ajv's standalone code of every schema src/ compiles (src/lib/validators.ts): every module
 * of src/ but main.ts is loaded once, here, and the schemas compiled meanwhile are generated
 * as code. Loaded from a bundle written inside the repository, so its packages resolve.
 */
async function standaloneValidators() {
  // Not main.ts (it starts the server), nor the static site's browser entries (they start a worker, a page).
  const entries = [join(root, 'src', 'main.ts'), join(root, 'src', 'site', 'worker', 'main.ts')];
  const modules = files(join(root, 'src')).filter(
    (file) => file.endsWith('.ts') && !entries.includes(file) && !file.startsWith(join(root, 'src', 'site', 'page')),
  );
  const entry = [
    ...modules.map((file) => `import ${JSON.stringify(file)};`),
    `export { compiledSchemas } from ${JSON.stringify(join(root, 'src', 'lib', 'validators.ts'))};`,
    `export { standaloneValidators } from ${JSON.stringify(join(root, 'scripts', 'lib', 'standalone-validators.ts'))};`,
  ].join('\n');
  const loader = join(next, 'generate-validators.mjs');
  await esbuild.build({
    stdin: { contents: entry, resolveDir: root, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile: loader,
    logLevel: 'warning',
  });
  const { compiledSchemas, standaloneValidators } = await import(pathToFileURL(loader).href);
  rmSync(loader);
  return standaloneValidators(compiledSchemas(), join(root, 'src', 'lib', 'formats.ts'));
}

const validators = await standaloneValidators();
const validatorsModule = join(root, 'src', 'lib', 'validators.ts');
await esbuild.build({
  entryPoints: [join(root, 'src', 'main.ts')],
  outfile: join(next, 'main.js'),
  bundle: true,
  platform: 'node',
  target: 'node20.12',
  // CommonJS, not an ES module: Node 26 spends about 15 MB more on a process whose entry is an
  // ES module (its ESM loader), whatever the module does. dist/package.json says so to Node.
  format: 'cjs',
  define: { 'import.meta.url': '__importMetaUrl' },
  banner: { js: "var __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  // ESM builds of packages that ship both (jsonc-parser's CommonJS build loads files at runtime).
  mainFields: ['module', 'main'],
  // Without comments and spaces the code is half the size, and V8 keeps all of it in memory.
  // Names are kept: a stack trace reads without the source map too.
  minifyWhitespace: true,
  minifySyntax: true,
  // The map points into src/ and node_modules/, where the sources are; copies would only
  // make it bigger for --enable-source-maps to read at boot.
  sourcemap: true,
  sourcesContent: false,
  logLevel: 'warning',
  plugins: [
    {
      // A package the service imports with import() is needed only on first use (ioredis when
      // Redis is configured, jose for tokens, @koa/bodyparser for request bodies): it stays
      // out of the bundle and is loaded from node_modules then, costing no memory before.
      name: 'dynamic-imports-stay-external',
      setup(build) {
        build.onResolve({ filter: /^[^./]/ }, (args) =>
          args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined,
        );
      },
    },
    {
      // accepts@1 (Koa's and src/http/send.ts's) brings mime-types@2 with a second copy of
      // mime-db, which Koa's mime-types@3 already holds: one copy, the same lookups.
      name: 'one-mime-db',
      setup(build) {
        build.onResolve({ filter: /^mime-types$/ }, () => ({
          path: join(root, 'node_modules', 'mime-types', 'index.js'),
        }));
      },
    },
    {
      name: 'standalone-validators',
      setup(build) {
        build.onLoad({ filter: /[\\/]src[\\/]lib[\\/]validators\.ts$/ }, (args) =>
          args.path === validatorsModule
            ? { contents: validators, loader: 'js', resolveDir: join(root, 'src', 'lib') }
            : undefined,
        );
      },
    },
  ],
});
// The reference page's own files, where src/docs/reference-page.ts looks for them: beside the module.
cpSync(join(root, 'src', 'docs', 'page'), join(next, 'page'), { recursive: true });
// The teacher's board, where src/http/board-page.ts looks for it.
cpSync(join(root, 'src', 'http', 'board'), join(next, 'board'), { recursive: true });
// GraphiQL with React and its stylesheet, for browsers: one script and one stylesheet the
// service serves itself (no CDN), beside the page that loads them (src/graphql/graphiql-page.ts).
// The bundle depends on its page and the installed packages only, so the last one is kept while
// those are unchanged: after `npm prune --omit=dev` the packages are gone, but a server edit
// still rebuilds.
const graphiqlInputs = hashOf((file) => readFileSync(file), ['src/graphql/page', 'package-lock.json']);
if (recorded?.graphiql === graphiqlInputs && existsSync(join(dist, 'graphiql', 'index.html'))) {
  cpSync(join(dist, 'graphiql'), join(next, 'graphiql'), { recursive: true });
} else {
  await esbuild.build({
    entryPoints: { graphiql: join(root, 'src', 'graphql', 'page', 'graphiql.mjs') },
    outdir: join(next, 'graphiql'),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: ['chrome110', 'firefox110', 'safari16'],
    define: { 'process.env.NODE_ENV': '"production"' },
    minify: true,
    legalComments: 'linked',
    logLevel: 'warning',
  });
  cpSync(join(root, 'src', 'graphql', 'page', 'index.html'), join(next, 'graphiql', 'index.html'));
}
// The static site's Service Worker and the script its pages load first (npm run export-site copies them):
// the server's read routes and catalog, bundled for browsers.
await esbuild.build({
  entryPoints: {
    sw: join(root, 'src', 'site', 'worker', 'main.ts'),
    register: join(root, 'src', 'site', 'page', 'register.ts'),
  },
  outdir: join(next, 'site'),
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: ['chrome110', 'firefox110', 'safari16'],
  minify: true,
  legalComments: 'linked',
  logLevel: 'warning',
});
// The typed client's npm package (scripts/client-package.mjs), served at /api/client.tgz; the last one
// is kept while its sources and the installed packages are unchanged. A copy without clients/ has none.
const clientInputs = hashOf(
  (file) => readFileSync(file),
  ['clients/typescript', 'scripts/client-package.mjs', 'package-lock.json'],
);
if (recorded?.client === clientInputs && existsSync(join(dist, 'client'))) {
  cpSync(join(dist, 'client'), join(next, 'client'), { recursive: true });
} else if (existsSync(join(root, 'clients', 'typescript'))) {
  await buildClientPackage({ root, esbuild, out: join(next, 'client') });
}
writeFileSync(join(next, 'package.json'), '{ "type": "commonjs" }\n');
writeFileSync(
  join(next, '.build-stamp'),
  `${JSON.stringify({ sizesAndTimes, contents: hashOf((file) => readFileSync(file)), graphiql: graphiqlInputs, client: clientInputs })}\n`,
);
rmSync(previous, { recursive: true, force: true });
if (existsSync(dist)) renameSync(dist, previous);
renameSync(next, dist);
rmSync(previous, { recursive: true, force: true });
