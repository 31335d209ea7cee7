import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

/** How an nginx of this file is run: its site (the `upstream` and `server` blocks), and how it stops. */
export interface NginxOptions {
  /** The site's configuration; by default a round-robin balancer over the upstreams on `port`. */
  site?: string;
  /** SIGQUIT (the default) lets open requests finish; SIGTERM stops at once (streams never finish). */
  stopSignal?: 'SIGQUIT' | 'SIGTERM';
}

/**
 * A real nginx (Debian package; `.ci/run` installs it) as a round-robin load balancer in
 * front of `upstreams`, on `port`, appending the client's address to X-Forwarded-For as the
 * example in docs/deploy/nginx.conf does (or running the site `options` gives): for the cluster
 * tests and benchmarks.
 */
export class Nginx {
  private child?: ChildProcess;
  private output = '';

  constructor(
    readonly port: number,
    private readonly upstreams: number[],
    private readonly options: NginxOptions = {},
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The default site: the upstreams behind one location that proxies everything. */
  private defaultSite(): string {
    return `
  upstream catalog {
${this.upstreams.map((port) => `    server 127.0.0.1:${port} max_fails=0;`).join('\n')}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${this.port};
    location / {
      proxy_pass http://catalog;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_next_upstream error timeout;
    }
  }
`;
  }

  async start(): Promise<void> {
    const prefix = await mkdtemp(join(tmpdir(), 'nginx-'));
    await mkdir(join(prefix, 'logs'), { recursive: true });
    await writeFile(join(prefix, 'site.conf'), this.options.site ?? this.defaultSite());
    const config = `
worker_processes 1;
error_log ${prefix}/logs/error.log warn;
pid ${prefix}/nginx.pid;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  include ${prefix}/site.conf;
}
`;
    await writeFile(join(prefix, 'nginx.conf'), config);
    const child = spawn('nginx', ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-g', 'daemon off;'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout!.on('data', (chunk) => (this.output += chunk));
    child.stderr!.on('data', (chunk) => (this.output += chunk));
    child.once(
      'error',
      (error) => (this.output += `nginx could not start (${error.message}); install it: apt-get install -y nginx`),
    );
    for (let i = 0; i < 200; i++) {
      if (child.exitCode !== null) throw new Error(`nginx exited: ${this.output}`);
      try {
        await fetch(`${this.url}/api/ping`);
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    throw new Error(`nginx did not start: ${this.output}`);
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill(this.options.stopSignal ?? 'SIGQUIT');
    await once(child, 'exit');
  }
}
