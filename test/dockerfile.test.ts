import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cp, mkdir, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort } from '../scripts/bench/ports.ts';
import { ROOT } from './helpers/spawn.ts';

const run = promisify(execFile);

/** One Dockerfile instruction, continuation lines joined. */
interface Instruction {
  name: string;
  args: string;
}

function instructions(text: string): Instruction[] {
  const joined = text.replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [name = '', ...rest] = line.split(/\s+/);
      return { name: name.toUpperCase(), args: rest.join(' ') };
    });
}

/** A stage being replayed: a folder standing for the image's file system, its workdir and environment. */
interface Stage {
  name: string;
  root: string;
  workdir: string;
  env: Record<string, string>;
  cmd?: string[];
  healthcheck?: string[];
}

const IGNORED = ['node_modules', 'dist', 'var', '.git'];

/**
 * Replays the Dockerfile's steps in temporary folders, as far as a machine without Docker
 * can: each stage's file system is a folder, COPY copies (from the build context or an
 * earlier stage), RUN runs with `sh -c` in the workdir, ENV, WORKDIR, CMD and HEALTHCHECK are
 * kept. USER, VOLUME and EXPOSE only matter to a container runtime.
 */
async function replay(): Promise<Stage> {
  const steps = instructions(await readFile(join(ROOT, 'Dockerfile'), 'utf8'));
  const base = await mkdtemp(join(tmpdir(), 'dockerfile-'));
  const stages: Stage[] = [];
  let stage: Stage | undefined;
  const inStage = (s: Stage, path: string) => join(s.root, path.startsWith('/') ? path : join(s.workdir, path));
  for (const { name, args } of steps) {
    if (name === 'FROM') {
      const label = /\bAS\s+(\S+)/i.exec(args)?.[1] ?? `stage${stages.length}`;
      stage = { name: label, root: join(base, label), workdir: '/', env: {} };
      await mkdir(stage.root, { recursive: true });
      stages.push(stage);
      continue;
    }
    if (!stage) throw new Error(`${name} before FROM`);
    if (name === 'WORKDIR') {
      stage.workdir = resolve(stage.workdir, args);
      await mkdir(join(stage.root, stage.workdir), { recursive: true });
    } else if (name === 'ENV') {
      for (const pair of args.split(/\s+/)) {
        const [key, ...value] = pair.split('=');
        stage.env[key!] = value.join('=');
      }
    } else if (name === 'COPY') {
      const parts = args.split(/\s+/);
      const from = parts[0]!.startsWith('--from=') ? stages.find((s) => s.name === parts.shift()!.slice('--from='.length)) : undefined;
      const dest = parts.pop()!;
      for (const source of parts) {
        const path = from ? join(from.root, source) : join(ROOT, source);
        const target = dest.endsWith('/') ? join(inStage(stage, dest), source.split('/').pop()!) : inStage(stage, dest);
        await cp(path, target, { recursive: true, filter: (src) => from !== undefined || !IGNORED.some((ignored) => src.startsWith(join(ROOT, ignored))) });
      }
    } else if (name === 'RUN') {
      await run('sh', ['-c', args], { cwd: join(stage.root, stage.workdir), env: { ...process.env, ...stage.env }, maxBuffer: 64 * 2 ** 20 });
    } else if (name === 'CMD') {
      stage.cmd = JSON.parse(args) as string[];
    } else if (name === 'HEALTHCHECK') {
      stage.healthcheck = JSON.parse(args.slice(args.indexOf('CMD') + 3)) as string[];
    }
  }
  return stage!;
}

test("the Dockerfile's own steps build an image that serves, passes its health check and stops cleanly on SIGTERM", async () => {
  const image = await replay();
  assert.equal(image.cmd?.[0], 'node');
  const port = String(await freePort());
  const cwd = join(image.root, image.workdir);
  const env = { ...process.env, ...image.env, PORT: port, HOST: '127.0.0.1' };
  const server = spawn(process.execPath, image.cmd!.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  server.stdout!.on('data', (chunk) => (output += chunk));
  server.stderr!.on('data', (chunk) => (output += chunk));
  try {
    for (let i = 0; i < 200 && !/listening on/.test(output); i++) await new Promise((r) => setTimeout(r, 50));
    assert.match(output, /listening on http:\/\/127\.0\.0\.1:\d+/);
    assert.not.match(output, /tsx|esbuild/, 'no transpiler at run time');
    const health = await run(process.execPath, image.healthcheck!.slice(1), { cwd, env }).then(
      () => 0,
      (error: { code?: number }) => error.code ?? 1,
    );
    assert.is(health, 0, 'the HEALTHCHECK command passes');
    const answer = await fetch(`http://127.0.0.1:${port}/api/v1/overview`);
    assert.is(answer.status, 200);
    server.kill('SIGTERM');
    const [code] = (await once(server, 'exit')) as [number | null];
    assert.is(code, 0, output);
  } finally {
    if (server.exitCode === null) server.kill('SIGKILL');
  }
});

test.run();
