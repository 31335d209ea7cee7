import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort } from '../../scripts/bench/ports.ts';
import { readConfig } from '../../src/config/env.ts';
import { contractProblems, type Answer } from './contract.ts';
import { resolvedDocument, tempDir, TEST_ENV, type TestServer } from './http.ts';
import { ROOT } from './spawn.ts';
import { ensureBuilt, START_ARGS } from './start-command.ts';

const RECORDER = join(ROOT, 'test', 'helpers', 'answer-recorder.mjs');

/** Waits until `url` answers `/api/ping`, or throws with the output when the process ended first. */
export async function waitUntilUp(url: string, exited: () => boolean, output: () => string): Promise<void> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    if (exited()) throw new Error(`the compiled server exited:\n${output()}`);
    const answered = await fetch(`${url}/api/ping`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the compiled server did not answer within 30 s:\n${output()}`);
}

/** The lines logged as problems: JSON lines of level warn (40) or above, or plain lines on stderr. */
function problemLines(stdout: string, stderr: string): string[] {
  const lines: string[] = [];
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { level?: number; msg?: string };
    if ((entry.level ?? 0) >= 40 && entry.msg !== undefined) lines.push(entry.msg);
  }
  for (const line of stderr.split('\n')) if (line && !line.startsWith('{')) lines.push(line);
  return lines;
}

/**
 * Starts the compiled server (dist/main.js, built when stale) as `npm start` starts it, on
 * 127.0.0.1, serving `DATA_DIR` (the embedded catalog unless `env` names another) with its
 * accounts in `<dir>/accounts.json` (a fresh temporary folder unless given), configured by
 * TEST_ENV and then `env`. It logs as JSON at `info` unless `env` says otherwise, so that every
 * problem it logs can be read back. Every answer it writes is recorded (answer-recorder.mjs)
 * and held against the OpenAPI document it serves when it is closed.
 */
export async function startApp(env: Record<string, string> = {}, dir?: string): Promise<TestServer> {
  ensureBuilt();
  const folder = dir ?? (await tempDir());
  const file = join(folder, 'accounts.json');
  const answers = join(await tempDir(), 'answers.jsonl');
  const port = await freePort();
  const settings = {
    DATA_DIR: join(ROOT, 'data'),
    ACCOUNTS_FILE: file,
    ...TEST_ENV,
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
  };
  const read = readConfig(settings);
  if ('error' in read) throw new Error(read.error);
  const child = spawn(process.execPath, [...START_ARGS], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...settings,
      ANSWERS_FILE: answers,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${RECORDER}`.trim(),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = once(child, 'exit');
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilUp(
      url,
      () => child.exitCode !== null,
      () => stdout + stderr,
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const warnings: string[] = [];
  let closing: Promise<void> | undefined;
  const close = async () => {
    // The document the server itself serves (a free route: it spends no test's budget).
    const document = await fetch(`${url}/api/openapi.json`).then(
      (response) => response.text(),
      () => undefined,
    );
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const [code, signal] = (await exited) as [number | null, string | null];
    clearTimeout(killer);
    warnings.push(...problemLines(stdout, stderr));
    const recorded = (await readFile(answers, 'utf8').catch(() => ''))
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const answer = JSON.parse(line) as Omit<Answer, 'body'> & { body: string };
        return { ...answer, body: Buffer.from(answer.body, 'base64') };
      });
    await rm(answers, { force: true });
    const failures: string[] = [];
    if (document === undefined)
      failures.push(`the server stopped answering before it was closed:\n${(stdout + stderr).slice(-2000)}`);
    const problems = document === undefined ? [] : contractProblems(await resolvedDocument(document), recorded);
    if (code !== 0) failures.push(`the server did not stop cleanly on SIGTERM (exit ${code ?? signal})`);
    const fiveHundreds = warnings.filter((line) => /^500 /.test(line) || /\n\s+at /.test(line));
    if (fiveHundreds.length)
      failures.push(`the server logged a 500 or a stack trace:\n${fiveHundreds.slice(0, 5).join('\n')}`);
    if (problems.length)
      failures.push(
        `answers the OpenAPI document does not describe:\n${[...new Set(problems)].slice(0, 40).join('\n')}`,
      );
    if (failures.length) throw new Error(failures.join('\n'));
  };
  return {
    url,
    port,
    config: read.config,
    file,
    warnings,
    get: (path, headers = {}) => fetch(url + path, { headers }),
    // Once: a test may close it before its `finally` does.
    close: () => (closing ??= close()),
  };
}
