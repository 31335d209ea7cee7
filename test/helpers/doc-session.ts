import { spawn, spawnSync, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from './spawn.ts';

// Runs a doc's commands as a reader would: one shell for the whole page (a variable set by one
// command is there for the next), in a copy of the repository (commands edit data/ and write
// var/), with a server started the way the page starts it, "in another terminal".

/** A command that starts the server and stays: `npm start`, `npm run dev`, `node … dist/main.js`, with variables before it. */
const SERVER = /^(\w+=\S*\s+)*(npm start|npm run dev|npm run classroom|node\s.*dist\/main\.js)\b/;

/**
 * A copy of the checkout's tracked files and its dist/, with the checkout's node_modules
 * linked in and a git history of one commit (docs run `git diff`), in a new temporary folder.
 */
export function sandboxCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-docs-'));
  const tracked = spawnSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .stdout.split('\0')
    .filter(Boolean);
  for (const file of tracked) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(ROOT, file), join(dir, file));
  }
  cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  const git = (...args: string[]) => spawnSync('git', args, { cwd: dir, env: { ...process.env, ...GIT_IDENTITY } });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'the checkout as a reader has it');
  return dir;
}

const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: 'Docs Test',
  GIT_AUTHOR_EMAIL: 'docs@example.org',
  GIT_COMMITTER_NAME: 'Docs Test',
  GIT_COMMITTER_EMAIL: 'docs@example.org',
};

/** What one command did: its exit code, what it printed, and its standard error apart (curl's progress meter goes there when not on a terminal). */
export interface Ran {
  code: number;
  output: string;
  errors: string;
}

/** A reader's terminal on a sandbox copy, and the server it started in another. */
export class DocSession {
  private readonly shell: ChildProcessWithoutNullStreams;
  private pending = '';
  private server?: { child: ChildProcess; output: () => string };
  /** Every server's output, for the 500s and stack traces it must not hold. */
  readonly serverOutputs: string[] = [];
  private readonly env: Record<string, string>;

  constructor(
    readonly dir: string,
    readonly port: number,
  ) {
    this.env = {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      LANG: 'C.UTF-8',
      HOST: '127.0.0.1',
      PORT: String(port),
      ...GIT_IDENTITY,
    };
    this.shell = spawn('bash', ['--noprofile', '--norc'], { cwd: dir, env: this.env });
    this.shell.stdout.setEncoding('utf8').on('data', (chunk: string) => (this.pending += chunk));
  }

  /** The command as this session runs it: the docs' port 3000 is this session's. */
  private local(text: string): string {
    return text.replace(/localhost:3000\b/g, `localhost:${this.port}`).replace(/\bPORT=3000\b/g, `PORT=${this.port}`);
  }

  /** Runs one command: a server in the background, anything else in the shell; a server is started first for a request to it. */
  async run(text: string, env: Record<string, string> = {}): Promise<Ran> {
    const command = this.local(text);
    if (SERVER.test(command)) return this.startServer(command, env);
    if (command.includes(`localhost:${this.port}`) && !this.server) await this.startServer('npm start', {});
    const marker = `__done_${Math.random().toString(36).slice(2)}__`;
    const exports = Object.entries(env)
      .map(([name, value]) => `${name}='${value}' `)
      .join('');
    this.pending = '';
    // Braces keep the shell's variables; no command reads the session's own input.
    const errors = join(this.dir, '.command-errors');
    this.shell.stdin.write(
      `{ ${exports ? `export ${exports};` : ''}\n${command}\n} </dev/null 2>${errors}\necho "${marker}$?"\n${exports ? `unset ${Object.keys(env).join(' ')}\n` : ''}`,
    );
    for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
      const found = new RegExp(`${marker}(\\d+)\\n`).exec(this.pending);
      if (found)
        return {
          code: Number(found[1]),
          output: this.pending.slice(0, found.index),
          errors: readFileSync(errors, 'utf8'),
        };
      if (this.shell.exitCode !== null)
        throw new Error(`the shell exited (${this.shell.exitCode}) during: ${command}\n${this.pending}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no end within 120 s: ${command}\n${this.pending}`);
  }

  /** Starts a server command in the background (stopping the one before), and waits until it answers. */
  private async startServer(command: string, env: Record<string, string>): Promise<Ran> {
    await this.stopServer();
    let output = '';
    const child = spawn('bash', ['-c', command], {
      cwd: this.dir,
      env: { ...this.env, ...env },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    this.server = { child, output: () => output };
    for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
      if (child.exitCode !== null) return { code: child.exitCode, output, errors: '' };
      const up = await fetch(`http://127.0.0.1:${this.port}/api/ping`).then(
        (response) => response.ok,
        () => false,
      );
      if (up) return { code: 0, output, errors: '' };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { code: 1, output, errors: '(did not answer within 60 s)' };
  }

  /** Stops the server as Ctrl-C in its terminal would (SIGINT to its process group). */
  private async stopServer(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    if (server.child.exitCode === null) {
      const exited = once(server.child, 'exit');
      process.kill(-server.child.pid!, 'SIGINT');
      const killer = setTimeout(() => process.kill(-server.child.pid!, 'SIGKILL'), 15_000);
      await exited;
      clearTimeout(killer);
    }
    this.serverOutputs.push(server.output());
  }

  /** Ends the shell and the server. */
  async close(): Promise<void> {
    await this.stopServer();
    this.shell.stdin.end('exit\n');
    if (this.shell.exitCode === null) await once(this.shell, 'exit');
  }
}
