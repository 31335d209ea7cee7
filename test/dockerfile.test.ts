import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { appendFile, cp, mkdir, mkdtemp, readdir, readFile, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort } from '../scripts/bench/ports.ts';
import { VARIABLES } from '../src/config/env.ts';
import { childPids, ROOT } from './helpers/spawn.ts';

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

/** The words of an instruction written either as a JSON array or space-separated. */
const words = (args: string): string[] => (args.startsWith('[') ? (JSON.parse(args) as string[]) : args.split(/\s+/));

/**
 * A stage being replayed: a folder standing for the image's file system, its workdir and
 * environment, and what the stage declares for a container runtime.
 */
interface Stage {
  name: string;
  /** The base image of FROM. */
  image: string;
  root: string;
  workdir: string;
  env: Record<string, string>;
  user?: string;
  volumes: string[];
  exposed: string[];
  cmd?: string[];
  healthcheck?: string[];
}

const IGNORED = ['node_modules', 'dist', 'var', '.git'];

/**
 * Replays the Dockerfile's steps in temporary folders, as far as a machine without Docker
 * can: each stage's file system is a folder, COPY copies (from the build context or an
 * earlier stage, keeping modification times as Docker does), RUN runs with `sh -c` in the
 * workdir, ENV, WORKDIR, CMD and HEALTHCHECK are kept. USER, VOLUME and EXPOSE are recorded
 * for the tests to check; only a container runtime acts on them.
 */
async function replay(): Promise<Stage[]> {
  const steps = instructions(await readFile(join(ROOT, 'Dockerfile'), 'utf8'));
  const base = await mkdtemp(join(tmpdir(), 'dockerfile-'));
  const stages: Stage[] = [];
  let stage: Stage | undefined;
  const inStage = (s: Stage, path: string) => join(s.root, path.startsWith('/') ? path : join(s.workdir, path));
  for (const { name, args } of steps) {
    if (name === 'FROM') {
      const label = /\bAS\s+(\S+)/i.exec(args)?.[1] ?? `stage${stages.length}`;
      stage = {
        name: label,
        image: args.split(/\s+/)[0]!,
        root: join(base, label),
        workdir: '/',
        env: {},
        volumes: [],
        exposed: [],
      };
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
      const from = parts[0]!.startsWith('--from=')
        ? stages.find((s) => s.name === parts.shift()!.slice('--from='.length))
        : undefined;
      const dest = parts.pop()!;
      for (const source of parts) {
        const path = from ? join(from.root, source) : join(ROOT, source);
        const target = dest.endsWith('/') ? join(inStage(stage, dest), source.split('/').pop()!) : inStage(stage, dest);
        const filter = (src: string) =>
          from !== undefined || !IGNORED.some((ignored) => src.startsWith(join(ROOT, ignored)));
        await cp(path, target, { recursive: true, preserveTimestamps: true, filter });
      }
    } else if (name === 'RUN') {
      await run('sh', ['-c', args], {
        cwd: join(stage.root, stage.workdir),
        env: { ...process.env, ...stage.env },
        maxBuffer: 64 * 2 ** 20,
      });
    } else if (name === 'USER') {
      stage.user = args;
    } else if (name === 'VOLUME') {
      stage.volumes.push(...words(args).map((volume) => resolve(stage!.workdir, volume)));
    } else if (name === 'EXPOSE') {
      stage.exposed.push(...words(args));
    } else if (name === 'CMD') {
      stage.cmd = JSON.parse(args) as string[];
    } else if (name === 'HEALTHCHECK') {
      stage.healthcheck = JSON.parse(args.slice(args.indexOf('CMD') + 3)) as string[];
    }
  }
  return stages;
}

/** Collects a process's output; `listening` waits for the boot line. */
function watch(child: ChildProcess): { output: () => string; listening: () => Promise<void> } {
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const listening = async () => {
    for (let i = 0; i < 300 && !/listening on/.test(output) && child.exitCode === null; i++)
      await new Promise((r) => setTimeout(r, 50));
  };
  return { output: () => output, listening };
}

// Replayed once by the first test (a failing before hook would pass in uvu 0.5), then inspected.
let stages: Stage[] = [];
const image = () => {
  const last = stages.at(-1);
  if (!last) throw new Error('the Dockerfile was not replayed');
  return { ...last, dir: join(last.root, last.workdir) };
};

test("the Dockerfile's own steps build an image that serves from one node process, passes its health check and stops cleanly on SIGTERM", async () => {
  const started = performance.now();
  stages = await replay();
  console.log(`  Dockerfile replayed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const { cmd, healthcheck, env: imageEnv, dir } = image();
  assert.equal(cmd?.[0], 'node', 'node itself is the container process (PID 1), receiving docker stop');
  assert.not.ok(
    await stat(join(dir, 'node_modules', 'typescript')).catch(() => undefined),
    'npm prune left the compiler out',
  );
  const port = String(await freePort());
  const env = { ...process.env, ...imageEnv, PORT: port, HOST: '127.0.0.1' };
  const server = spawn(process.execPath, cmd!.slice(1), { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const { output, listening } = watch(server);
  try {
    await listening();
    assert.match(output(), /listening on http:\/\/127\.0\.0\.1:\d+/);
    assert.equal(await childPids(server.pid!), [], 'no transpiler or other process beside the server');
    const health = await run(process.execPath, healthcheck!.slice(1), { cwd: dir, env }).then(
      () => 0,
      (error: { code?: number }) => error.code ?? 1,
    );
    assert.is(health, 0, 'the HEALTHCHECK command passes');
    const answer = await fetch(`http://127.0.0.1:${port}/api/v1/overview`);
    assert.is(answer.status, 200);
    server.kill('SIGTERM');
    const [code] = (await once(server, 'exit')) as [number | null];
    assert.is(code, 0, output());
  } finally {
    if (server.exitCode === null) server.kill('SIGKILL');
  }
});

/** Every `.js` file at or below `folder`. */
async function scripts(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
    .map((entry) => join(entry.parentPath, entry.name));
}

test('every package the compiled server loads from node_modules, on first use (jose, ioredis, the body parser, the reference page), is installed in the pruned image', async () => {
  const { dir } = image();
  const packages = new Set<string>();
  // dist/graphiql holds a browser bundle: its `import("graphql-ws")` (subscriptions, unused) never runs on the server.
  const browserOnly = join(dir, 'dist', 'graphiql');
  for (const file of (await scripts(join(dir, 'dist'))).filter((name) => !name.startsWith(browserOnly))) {
    for (const [, specifier = ''] of (await readFile(file, 'utf8')).matchAll(
      /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bresolve\(\s*)['"]([^'"\s]+)['"]/g,
    )) {
      // A package name, optionally with a path inside it (relative imports and node: built-ins are not packages).
      if (/^(@[\w.-]+\/)?[\w-][\w.-]*(\/[\w./-]+)?$/.test(specifier)) packages.add(specifier);
    }
  }
  for (const known of ['jose', 'ioredis', '@koa/bodyparser', 'swagger-ui-dist/package.json'])
    assert.ok(packages.has(known), `the scan finds ${known}`);
  // Resolved and loaded from the image's own node_modules, as the server would on first use.
  const load = `for (const name of ${JSON.stringify([...packages])}) { const url = import.meta.resolve(name); if (!name.endsWith('.json')) await import(url); }`;
  const loaded = await run(process.execPath, ['--input-type=module', '-e', load], { cwd: dir }).then(
    () => '',
    (error: { stderr?: string }) => error.stderr ?? 'failed',
  );
  assert.is(loaded, '', loaded);
});

test('the image is built on the LTS slim image .nvmrc names, runs as a non-root user and keeps the accounts in a volume', async () => {
  const lts = (await readFile(join(ROOT, '.nvmrc'), 'utf8')).trim();
  for (const stage of stages) assert.is(stage.image, `node:${lts}-slim`, `stage ${stage.name}`);
  const { user, volumes, workdir, env, exposed, root } = image();
  assert.ok(user && !/^(root|0)(:|$)/.test(user), `USER ${user}`);
  const accounts = resolve(workdir, VARIABLES.ACCOUNTS_FILE.default);
  assert.ok(
    volumes.some((volume) => accounts.startsWith(`${volume}/`)),
    `the default ACCOUNTS_FILE (${accounts}) and its jwt-secret lie in a volume (${volumes.join(', ')})`,
  );
  for (const volume of volumes)
    assert.ok((await stat(join(root, volume))).isDirectory(), `${volume} exists in the image`);
  assert.equal(exposed, [env.PORT], 'EXPOSE names the port the server listens on');
});

test('`npm start` in the image starts at once while the build matches the sources, whatever their file times, and rebuilds once they differ (esbuild comes with tsx, a production dependency; the GraphiQL bundle is kept)', async () => {
  const { env: imageEnv, dir } = image();
  const env = { ...process.env, ...imageEnv, PORT: String(await freePort()), HOST: '127.0.0.1' };
  // A copy that does not keep file times (rsync without -t, a fresh checkout of the same commit).
  const later = new Date(Date.now() + 60_000);
  const touch = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await touch(path);
      await utimes(path, later, later);
    }
  };
  await touch(join(dir, 'src'));
  const npm = spawn('npm', ['start'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const started = watch(npm);
  try {
    await started.listening();
    assert.match(started.output(), /listening on/, started.output());
    assert.not.match(started.output(), /building dist/);
    npm.kill('SIGTERM');
    const [code] = (await once(npm, 'exit')) as [number | null];
    assert.is(code, 0, started.output());
  } finally {
    if (npm.exitCode === null) npm.kill('SIGKILL');
  }

  await appendFile(join(dir, 'src', 'main.ts'), '\n// edited after the build\n');
  const stale = spawn('npm', ['start'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const rebuilt = watch(stale);
  try {
    await rebuilt.listening();
    assert.match(rebuilt.output(), /building dist\/ from src\/ \(esbuild\)/);
    // GraphiQL's packages are pruned (devDependencies): its bundle is kept, its inputs unchanged.
    assert.ok(
      await stat(join(dir, 'dist', 'graphiql', 'graphiql.js')).catch(() => undefined),
      'the rebuild keeps GraphiQL',
    );
    stale.kill('SIGTERM'); // npm passes it on to the server, which exits
    await once(stale, 'exit');
  } finally {
    if (stale.exitCode === null) stale.kill('SIGKILL');
  }
});

// The replayed stages hold two node_modules (a few hundred MB): gone once the checks are done.
test.after(async () => {
  const first = stages[0];
  if (first) await rm(dirname(first.root), { recursive: true, force: true });
});

test.run();
