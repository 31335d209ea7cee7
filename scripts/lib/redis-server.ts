import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/**
 * A real `redis-server` on a loopback port, without persistence unless given a folder, for the tests and benchmarks that need one.
 * CI installs it (`.ci/run`); a machine without it fails the test rather than skipping it.
 */
export class RedisServer {
  private child?: ChildProcess;

  /**
   * `dir`: keep an append-only file there, so the data survives a restart (as a real
   * deployment should); `settings`: more redis-server arguments, which win over those.
   */
  constructor(
    readonly port: number,
    private readonly dir?: string,
    private readonly settings: string[] = [],
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const persistence = this.dir
      ? ['--dir', this.dir, '--appendonly', 'yes', '--appendfsync', 'always']
      : ['--appendonly', 'no'];
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        ...persistence,
        '--enable-debug-command',
        'local',
        ...this.settings,
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.child = child;
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    const failed = once(child, 'error').then(([error]) => {
      throw new Error(
        `redis-server could not start (${(error as Error).message}); install it: apt-get install -y redis-server`,
      );
    });
    const deadline = Date.now() + 10_000;
    const ready = (async () => {
      while (!/Ready to accept connections/.test(output)) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server did not start: ${output}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    await Promise.race([ready, failed]);
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    child.kill('SIGKILL');
    await once(child, 'exit');
  }
}
