import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { NODE_FLAGS } from '../scripts/bench/child.ts';
import { freePort } from '../scripts/bench/ports.ts';
import { VARIABLES } from '../src/config/env.ts';
import { tempDir } from './helpers/http.ts';
import { ROOT } from './helpers/spawn.ts';

const run = promisify(execFile);
const GRACE_SECONDS = Number(VARIABLES.SHUTDOWN_GRACE_SECONDS.default);

/** The `[Service]` settings of a systemd unit; `Environment=` lines merged into one map. */
function serviceSettings(unit: string): { settings: Map<string, string>; environment: Record<string, string> } {
  const section = /^\[Service\]\n([\s\S]*?)(?=^\[|$(?![\s\S]))/m.exec(unit)?.[1] ?? '';
  const settings = new Map<string, string>();
  const environment: Record<string, string> = {};
  for (const line of section.split('\n')) {
    const match = /^(\w+)=(.*)$/.exec(line.trim());
    if (!match) continue;
    const [, key = '', value = ''] = match;
    if (key === 'Environment') {
      for (const pair of value.split(/\s+/).filter(Boolean))
        environment[pair.slice(0, pair.indexOf('='))] = pair.slice(pair.indexOf('=') + 1);
    } else settings.set(key, value);
  }
  return { settings, environment };
}

/** Seconds in a compose duration such as `15s`, `1m30s` or `500ms`. */
function durationSeconds(text: string): number {
  const units: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001, us: 1e-6 };
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(h|ms|us|m|s)/g)];
  assert.ok(parts.length && parts.map((p) => p[0]).join('') === text, `a compose duration: '${text}'`);
  return parts.reduce((sum, [, amount, unit]) => sum + Number(amount) * units[unit!]!, 0);
}

/** Every `node … dist/main.js` command in the shell blocks of a Markdown file. */
function shellCommands(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)].map((match) => match[1]!);
  return blocks.flatMap((block) => block.split('\n')).filter((line) => /\bnode\b.*dist\/main\.js/.test(line));
}

test('every documented way to start the server passes the node flags the bench starts it with', async () => {
  const read = (path: string) => readFile(join(ROOT, path), 'utf8');
  const pkg = JSON.parse(await read('package.json')) as { scripts: Record<string, string> };
  const cmd = /^CMD (\[.*\])$/m.exec(await read('Dockerfile'))?.[1];
  const commands: [string, string][] = [
    ['npm start', pkg.scripts.start!],
    ['the Dockerfile', cmd ? (JSON.parse(cmd) as string[]).join(' ') : ''],
    [
      'the systemd unit',
      serviceSettings(await read('docs/deploy/series-catalog.service')).settings.get('ExecStart') ?? '',
    ],
    ...shellCommands(await read('README.md')).map((line): [string, string] => ['README.md', line]),
    ...shellCommands(await read('docs/deploy.md')).map((line): [string, string] => ['docs/deploy.md', line]),
  ];
  assert.ok(commands.length >= 5, 'the README and deploy.md each start it at least once');
  for (const [where, command] of commands) {
    assert.match(command, /dist\/main\.js/, `${where} starts the compiled server`);
    for (const flag of NODE_FLAGS)
      assert.ok(command.split(/\s+/).includes(flag), `${where} passes ${flag}: ${command}`);
  }
});

test('the systemd unit starts the compiled server as written, behind the nginx example, and gives it longer to stop than the grace period', async () => {
  const { settings, environment } = serviceSettings(
    await readFile(join(ROOT, 'docs/deploy/series-catalog.service'), 'utf8'),
  );
  assert.ok(
    Number(settings.get('TimeoutStopSec')) > GRACE_SECONDS,
    `TimeoutStopSec=${settings.get('TimeoutStopSec')} exceeds SHUTDOWN_GRACE_SECONDS (${GRACE_SECONDS})`,
  );
  const nginx = await readFile(join(ROOT, 'docs/deploy/nginx.conf'), 'utf8');
  assert.match(
    nginx,
    new RegExp(`proxy_pass http://${environment.HOST}:${environment.PORT};`),
    'nginx forwards to the address the unit binds',
  );
  assert.match(nginx, /X-Forwarded-For \$proxy_add_x_forwarded_for/);
  assert.is(environment.TRUST_PROXY, '1', 'one proxy in front');

  const [program = '', ...args] = (settings.get('ExecStart') ?? '').split(/\s+/);
  assert.match(program, /\/node$/, 'systemd starts node itself, so its SIGTERM reaches the server');
  await run(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT });
  const port = String(await freePort());
  // systemd's environment: the unit's variables and little else. The port is a free one, the accounts a temporary file.
  const env = {
    PATH: process.env.PATH!,
    ...environment,
    PORT: port,
    ACCOUNTS_FILE: join(await tempDir(), 'accounts.json'),
  };
  const server = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  server.stdout!.on('data', (chunk) => (output += chunk));
  server.stderr!.on('data', (chunk) => (output += chunk));
  try {
    for (let i = 0; i < 300 && !/listening on/.test(output) && server.exitCode === null; i++)
      await new Promise((r) => setTimeout(r, 50));
    assert.match(output, new RegExp(`listening on http://${environment.HOST}:${port}`), output);
    assert.is(await (await fetch(`http://${environment.HOST}:${port}/api/ping`)).text(), 'Pong');
    server.kill((settings.get('KillSignal') ?? 'SIGTERM') as NodeJS.Signals);
    const [code] = (await once(server, 'exit')) as [number | null];
    assert.is(code, 0, output);
  } finally {
    if (server.exitCode === null) server.kill('SIGKILL');
  }
});

test('compose gives every service built from the Dockerfile longer to stop than the grace period', async () => {
  const compose = parse(await readFile(join(ROOT, 'compose.yaml'), 'utf8')) as {
    services: Record<string, { build?: unknown; stop_grace_period?: string }>;
  };
  const built = Object.entries(compose.services).filter(([, service]) => service.build === '.');
  assert.ok(built.length > 0, 'compose builds this repository');
  for (const [name, service] of built) {
    assert.ok(
      service.stop_grace_period,
      `${name} sets stop_grace_period (docker's default of 10 s is not above the grace)`,
    );
    assert.ok(
      durationSeconds(service.stop_grace_period!) > GRACE_SECONDS,
      `${name}: stop_grace_period ${service.stop_grace_period} exceeds ${GRACE_SECONDS} s`,
    );
  }
});

test.run();
