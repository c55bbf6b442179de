import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './haproxy';

/**
 * A real Caddy (Debian package `caddy`, installed by `.ci/run`) on loopback with on-demand TLS as
 * docker/Caddyfile sets it up: before it issues a certificate for a host, it asks the app's
 * `GET /api/domains/allowed?domain={host}`. Certificates come from Caddy's own local CA (no ACME:
 * this machine has no network), stored in a temp folder.
 */
export class Caddy {
  private proc: ChildProcess | null = null;
  private dir = '';
  private output = '';
  httpsPort = 0;

  async start(app: { host: string; port: number }): Promise<void> {
    this.dir = mkdtempSync(join(tmpdir(), 'caddy-'));
    this.httpsPort = await freePort();
    const httpPort = await freePort();
    const backend = `${app.host}:${app.port}`;
    const file = join(this.dir, 'Caddyfile');
    writeFileSync(
      file,
      `{
  admin off
  http_port ${httpPort}
  https_port ${this.httpsPort}
  auto_https disable_redirects
  local_certs
  skip_install_trust
  storage file_system ${join(this.dir, 'data')}
  on_demand_tls {
    ask http://${backend}/api/domains/allowed
  }
}
https:// {
  tls internal {
    on_demand
  }
  reverse_proxy ${backend}
}
`,
    );
    const env = {
      ...process.env,
      HOME: this.dir,
      XDG_DATA_HOME: this.dir,
      XDG_CONFIG_HOME: this.dir,
    };
    this.proc = spawn('caddy', ['run', '--config', file, '--adapter', 'caddyfile'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.proc.stdout?.on('data', (d: Buffer) => (this.output += d.toString()));
    this.proc.stderr?.on('data', (d: Buffer) => (this.output += d.toString()));
    const exited = new Promise<never>((_, reject) =>
      this.proc?.once('exit', (code) =>
        reject(new Error(`caddy exited with ${code}:\n${this.output.slice(-2000)}`)),
      ),
    );
    await Promise.race([this.listening(10_000), exited]);
  }

  private async listening(timeoutMs: number): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const ok = await new Promise<boolean>((resolve) => {
        const s = connect(this.httpsPort, '127.0.0.1');
        s.once('connect', () => (s.destroy(), resolve(true)));
        s.once('error', () => resolve(false));
      });
      if (ok) return;
      if (Date.now() > until) throw new Error(`caddy did not listen:\n${this.output.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  get log(): string {
    return this.output;
  }

  async stop(): Promise<void> {
    const p = this.proc;
    this.proc = null;
    if (p && p.exitCode === null) {
      const gone = new Promise((r) => p.once('exit', r));
      p.kill('SIGTERM');
      await gone;
    }
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }
}
