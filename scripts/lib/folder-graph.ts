import { cruise } from 'dependency-cruiser';

/** Folders (and the root files) of src/, top of the graph first. */
const ORDER = [
  'main.ts',
  'service.ts',
  'app.ts',
  'routes.ts',
  'parts.ts',
  'site',
  'docs',
  'graphql',
  'http',
  'served',
  'limits',
  'accounts',
  'changes',
  'catalog-writes',
  'reads',
  'catalog',
  'config',
  'lib',
];

/**
 * The import graph of src/ by folder, as text: one line per folder with the folders it
 * imports. CONTRIBUTING.md shows it, and a test keeps the two equal.
 *
 * @example
 * await folderGraph();
 * // 'main.ts  → service.ts, catalog, config\n...\nlib      → (nothing)'
 */
export async function folderGraph(): Promise<string> {
  const result = await cruise(
    ['src'],
    {
      collapse: '^src/(app|main|parts|routes|service)\\.ts$|^src/[^/]+',
      tsPreCompilationDeps: true,
      doNotFollow: { path: 'node_modules' },
      exclude: { path: 'node_modules' },
    },
    { extensions: ['.ts', '.js', '.json'] },
  );
  const output = result.output as {
    modules: { source: string; dependencies: { resolved: string; coreModule: boolean }[] }[];
  };
  const name = (path: string) => path.replace(/^src\//, '');
  const edges = new Map<string, string[]>();
  for (const module of output.modules.filter((m) => m.source.startsWith('src/'))) {
    const targets = module.dependencies
      .filter((d) => !d.coreModule && d.resolved.startsWith('src/'))
      .map((d) => name(d.resolved));
    edges.set(
      name(module.source),
      [...new Set(targets)].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b)),
    );
  }
  const width = Math.max(...ORDER.map((folder) => folder.length));
  return ORDER.filter((folder) => edges.has(folder))
    .map((folder) => `${folder.padEnd(width)} → ${edges.get(folder)!.join(', ') || '(nothing)'}`)
    .join('\n');
}
