import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A free TCP port on 127.0.0.1 (asked from the kernel, then released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface HaproxyBackend {
  host: string;
  port: number;
}

export interface HaproxyOptions {
  /** Source address HAProxy connects to the backends from (e.g. 127.0.0.2), so the app can tell it apart. */
  source?: string;
  /** Adds `X-Served-By: app{i}` (the backend that answered) to every answer. */
  servedBy?: boolean;
}

/**
 * A real HAProxy (Debian package `haproxy`, installed by `.ci/run`) on loopback, in HTTP mode with
 * `option forwardfor` and round robin over the given backends: it appends the address it sees to
 * X-Forwarded-For, after whatever the client sent.
 */
export class Haproxy {
  private proc: ChildProcess | null = null;
  private dir = '';
  port = 0;
  private stderr = '';

  constructor(
    private readonly backends: HaproxyBackend[],
    private readonly options: HaproxyOptions = {},
  ) {}

  async start(): Promise<string> {
    this.port = await freePort();
    this.dir = mkdtempSync(join(tmpdir(), 'url-shorter-haproxy-'));
    const source = this.options.source ? ` source ${this.options.source}` : '';
    const cfg = [
      'global',
      '  maxconn 4096',
      'defaults',
      '  mode http',
      '  timeout connect 5s',
      '  timeout client 30s',
      '  timeout server 30s',
      '  option forwardfor',
      '  option http-server-close',
      'frontend web',
      `  bind 127.0.0.1:${this.port}`,
      '  default_backend apps',
      'backend apps',
      '  balance roundrobin',
      ...(this.options.servedBy ? ['  http-response set-header X-Served-By %[srv_name]'] : []),
      ...this.backends.map((b, i) => `  server app${i} ${b.host}:${b.port}${source}`),
      '',
    ].join('\n');
    const file = join(this.dir, 'haproxy.cfg');
    writeFileSync(file, cfg);
    const bin = existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : 'haproxy';
    const proc = spawn(bin, ['-f', file, '-db'], { stdio: ['ignore', 'ignore', 'pipe'] });
    this.proc = proc;
    proc.stderr?.on('data', (d: Buffer) => (this.stderr += d.toString()));
    const spawned = await new Promise<Error | null>((resolve) => {
      proc.once('error', resolve);
      proc.once('spawn', () => resolve(null));
    });
    if (spawned) {
      throw new Error(
        `haproxy could not be started (${spawned.message}); install the Debian package haproxy (.ci/run does)`,
      );
    }
    const url = `http://127.0.0.1:${this.port}`;
    for (let i = 0; i < 100; i++) {
      if (proc.exitCode !== null) throw new Error(`haproxy exited: ${this.stderr}`);
      try {
        await fetch(`${url}/management/health/liveness`);
        return url;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    throw new Error(`haproxy did not answer on ${url}: ${this.stderr}`);
  }

  async stop(): Promise<void> {
    const proc = this.proc;
    this.proc = null;
    if (proc && proc.exitCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    }
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }
}
