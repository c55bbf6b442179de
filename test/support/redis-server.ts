import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from './haproxy';

/**
 * A private redis-server (Debian package `redis-server`) on a free loopback port, which a test may
 * stop and start again without touching the shared one on 6379. No persistence: a restart starts
 * empty, as a Redis without a volume would.
 */
export class PrivateRedis {
  private proc: ChildProcess | null = null;
  port = 0;

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<string> {
    if (!this.port) this.port = await freePort();
    const proc = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    this.proc = proc;
    const spawned = await new Promise<Error | null>((resolve) => {
      proc.once('error', resolve);
      proc.once('spawn', () => resolve(null));
    });
    if (spawned) {
      throw new Error(
        `redis-server could not be started (${spawned.message}); install the Debian package redis-server`,
      );
    }
    for (let i = 0; i < 100; i++) {
      if (proc.exitCode !== null) throw new Error(`redis-server exited with ${proc.exitCode}`);
      if (await this.answers()) return this.url;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`redis-server did not answer on port ${this.port}`);
  }

  /** True when the server answers PING. */
  private answers(): Promise<boolean> {
    return new Promise((resolve) => {
      const s = connect(this.port, '127.0.0.1');
      s.once('error', () => resolve(false));
      s.once('connect', () => s.write('PING\r\n'));
      s.once('data', (d: Buffer) => {
        s.destroy();
        resolve(d.toString().startsWith('+PONG'));
      });
    });
  }

  /** Stops the server (SIGTERM to the process this helper started) and waits for its exit. */
  async stop(): Promise<void> {
    const proc = this.proc;
    this.proc = null;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await exited;
  }
}
