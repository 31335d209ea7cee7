import { join } from 'node:path';
import ts from 'typescript';
import { ROOT } from './spawn.ts';

/** One error tsc reports: where (1-based line), its code and its text. */
export interface TypeError {
  file: string;
  line: number;
  code: number;
  message: string;
}

/** The repository's compiler options (tsconfig.json), as `npx tsc --noEmit` reads them. */
export function repositoryOptions(): ts.CompilerOptions {
  const file = join(ROOT, 'tsconfig.json');
  const parsed = ts.parseJsonConfigFileContent(ts.readConfigFile(file, ts.sys.readFile).config, ts.sys, ROOT);
  return parsed.options;
}

/**
 * What tsc reports when it checks `files` (and what they import) with `options`, the text of
 * each file in `replaced` read instead of the file's own.
 *
 * @example
 * typeErrors([join(ROOT, 'test/helpers/client-tour.ts')], repositoryOptions()); // []
 */
export function typeErrors(
  files: string[],
  options: ts.CompilerOptions,
  replaced: ReadonlyMap<string, string> = new Map(),
): TypeError[] {
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => {
    const text = replaced.get(name);
    return text === undefined ? getSourceFile(name, language, ...rest) : ts.createSourceFile(name, text, language);
  };
  const program = ts.createProgram(files, { ...options, noEmit: true }, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => ({
    file: diagnostic.file?.fileName ?? '',
    line: diagnostic.file ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1 : 0,
    code: diagnostic.code,
    message: ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
  }));
}

/**
 * Every member of the `paths` interface of a generated client (clients/typescript/src/openapi.ts):
 * `METHOD /path` for each method the path has (not `?: never`).
 *
 * @example
 * clientRoutes(source); // ['GET /api', 'GET /api/ping', …]
 */
export function clientRoutes(source: string): string[] {
  const file = ts.createSourceFile('openapi.ts', source, ts.ScriptTarget.ES2022);
  const paths = file.statements.find(
    (statement): statement is ts.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(statement) && statement.name.text === 'paths',
  );
  if (!paths) throw new Error('the generated client has no `paths` interface');
  const routes: string[] = [];
  for (const item of paths.members) {
    if (!ts.isPropertySignature(item) || !item.type || !ts.isTypeLiteralNode(item.type)) continue;
    const path = (item.name as ts.StringLiteral).text;
    for (const method of item.type.members)
      if (ts.isPropertySignature(method) && method.type?.kind !== ts.SyntaxKind.NeverKeyword) {
        const name = (method.name as ts.Identifier).text;
        if (name !== 'parameters') routes.push(`${name.toUpperCase()} ${path}`);
      }
  }
  return routes;
}
