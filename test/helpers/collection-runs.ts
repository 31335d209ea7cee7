import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './spawn.ts';

// The request collections the server serves, run by their own command-line tools as a user
// runs them (node_modules/.bin), and what their reporters say of each request.

/** What a tool's report says of one request: its name, the status it got, its tests and the failed ones. */
export interface Outcome {
  name: string;
  status: number | undefined;
  tests: number;
  failed: string[];
}

/** Runs `node_modules/.bin/<tool>` with `args` in `cwd` to its end: its code, its standard output, and both outputs. */
export async function runTool(
  tool: string,
  args: string[],
  cwd: string,
): Promise<{ code: number | null; stdout: string; output: string }> {
  // Standard output into a file: a tool that calls process.exit cuts what it wrote into a pipe short.
  const file = join(cwd, `${tool}.stdout`);
  const out = openSync(file, 'w');
  const child = spawn(join(ROOT, 'node_modules', '.bin', tool), args, {
    cwd,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', out, 'pipe'],
  });
  closeSync(out);
  let errors = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  const killer = setTimeout(() => child.kill('SIGKILL'), 240_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(killer);
  const stdout = readFileSync(file, 'utf8');
  return { code, stdout, output: `${stdout.slice(-3000)}\n${errors}` };
}

interface NewmanReport {
  run: {
    executions: {
      item: { name: string };
      response?: { code: number };
      assertions?: { assertion: string; error?: { message: string } }[];
    }[];
  };
}

/** The requests of a `newman run -r json` report. */
export function newmanOutcomes(report: NewmanReport): Outcome[] {
  return report.run.executions.map((execution) => ({
    name: execution.item.name,
    status: execution.response?.code,
    tests: execution.assertions?.length ?? 0,
    failed: (execution.assertions ?? []).filter((a) => a.error).map((a) => `${a.assertion}: ${a.error!.message}`),
  }));
}

type BrunoReport = {
  results: {
    name: string;
    response?: { status?: number };
    error?: string | null;
    testResults?: { description: string; status: string; error?: string }[];
  }[];
}[];

/** The requests of a `bru run --reporter-json` report (its first iteration). */
export function brunoOutcomes(report: BrunoReport): Outcome[] {
  return report[0]!.results.map((result) => ({
    name: result.name,
    status: result.response?.status,
    tests: result.testResults?.length ?? 0,
    failed: [
      ...(result.error ? [result.error] : []),
      ...(result.testResults ?? [])
        .filter((t) => t.status !== 'pass')
        .map((t) => `${t.description}: ${t.error ?? t.status}`),
    ],
  }));
}

interface HttpyacReport {
  requests: {
    name: string;
    response?: { statusCode: number };
    testResults?: { message: string; status: string; error?: { displayMessage?: string } }[];
  }[];
}

/** The requests of an `httpyac send --json` report. */
export function httpyacOutcomes(report: HttpyacReport): Outcome[] {
  return report.requests.map((request) => ({
    name: request.name,
    status: request.response?.statusCode,
    tests: request.testResults?.length ?? 0,
    failed: (request.testResults ?? [])
      .filter((t) => t.status !== 'SUCCESS')
      .map((t) => `${t.message}: ${t.error?.displayMessage ?? t.status}`),
  }));
}

/** The names of the requests of each collection as served, in order. */
export const requestNames = {
  postman: (collection: { item: { item: { name: string }[] }[] }) =>
    collection.item.flatMap((folder) => folder.item.map((item) => item.name)),
  bruno: (collection: { items: { items: { name: string }[] }[] }) =>
    collection.items.flatMap((folder) => folder.items.map((item) => item.name)),
  http: (file: string) => [...file.matchAll(/^# @name (\S+)$/gm)].map((match) => match[1]!),
};

/** Every operation of an OpenAPI document: its operationId (the collections' request names). */
export function operationNames(doc: { paths: Record<string, Record<string, { operationId?: string }>> }): string[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    ['get', 'post', 'put', 'patch', 'delete']
      .filter((method) => item[method])
      .map((method) => item[method]!.operationId ?? `${method}_${path}`),
  );
}
