// The typed client (clients/typescript/, docs/clients.md) as the npm package tarball that
// GET /api/client.tgz serves, for scripts/build.mjs: its ES module with openapi-fetch bundled
// in (esbuild), its declarations with openapi-fetch's beside them (TypeScript), and no
// dependencies, so it installs with no registry; packed by `npm pack`. Plain JavaScript, as
// build.mjs is.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The packages bundled in, whose declarations and licenses ship with the client. */
const BUNDLED = ['openapi-fetch', 'openapi-typescript-helpers'];

/** A bundled package's folder, found from the client as esbuild finds it. */
function packageDir(root, name) {
  return dirname(createRequire(join(root, 'clients', 'typescript', 'src', 'index.ts')).resolve(`${name}/package.json`));
}

/** Whether a package is installed where the client finds it. */
function installed(root, name) {
  try {
    return Boolean(packageDir(root, name));
  } catch {
    return false;
  }
}

/** Every import of a bundled package in a declaration file, pointed at its copy beside it. */
function pointAtCopies(declarations) {
  return BUNDLED.reduce(
    (text, name) =>
      text.replaceAll(`from '${name}'`, `from './${name}.js'`).replaceAll(`from "${name}"`, `from './${name}.js'`),
    declarations,
  );
}

/**
 * Builds the client package in `out` (a folder of its own): `<name>-<version>.tgz`, the
 * only file left there. `esbuild` is the build's.
 *
 * @example
 * await buildClientPackage({ root, esbuild, out: join(next, 'client') });
 */
export async function buildClientPackage({ root, esbuild, out }) {
  // A copy pruned of its dev packages (npm prune --omit=dev) rebuilding after an edit of the client.
  const missing = ['typescript', ...BUNDLED].filter((name) => !installed(root, name));
  if (missing.length)
    return console.error(`the typed client is not packed: ${missing.join(', ')} not installed (npm ci installs them)`);
  const source = join(root, 'clients', 'typescript');
  const stage = join(out, 'package');
  mkdirSync(join(stage, 'dist'), { recursive: true });
  await esbuild.build({
    entryPoints: [join(source, 'src', 'index.ts')],
    outfile: join(stage, 'dist', 'index.js'),
    bundle: true,
    platform: 'neutral',
    format: 'esm',
    target: 'es2022',
    mainFields: ['module', 'main'],
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const { default: ts } = await import('typescript');
  const compilerOptions = { module: ts.ModuleKind.NodeNext, target: ts.ScriptTarget.ES2022, declaration: true };
  for (const name of ['index', 'openapi']) {
    const { outputText, diagnostics } = ts.transpileDeclaration(
      readFileSync(join(source, 'src', `${name}.ts`), 'utf8'),
      { compilerOptions, fileName: `${name}.ts`, reportDiagnostics: true },
    );
    if (diagnostics?.length)
      throw new Error(
        `clients/typescript/src/${name}.ts: ${ts.flattenDiagnosticMessageText(diagnostics[0].messageText, '\n')}`,
      );
    writeFileSync(join(stage, 'dist', `${name}.d.ts`), pointAtCopies(outputText));
  }
  const licenses = ['# Bundled in this package', ''];
  for (const name of BUNDLED) {
    const dir = packageDir(root, name);
    const declarations = readFileSync(join(dir, 'dist', 'index.d.mts'), 'utf8');
    writeFileSync(join(stage, 'dist', `${name}.d.ts`), pointAtCopies(declarations));
    const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    licenses.push(`## ${name} ${version}`, '', '```', readFileSync(join(dir, 'LICENSE'), 'utf8').trim(), '```', '');
  }
  writeFileSync(join(stage, 'THIRD-PARTY-LICENSES.md'), licenses.join('\n'));
  cpSync(join(source, 'package.json'), join(stage, 'package.json'));
  cpSync(join(source, 'README.md'), join(stage, 'README.md'));
  execFileSync('npm', ['pack', '--silent', '--pack-destination', out], {
    cwd: stage,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  rmSync(stage, { recursive: true });
}
