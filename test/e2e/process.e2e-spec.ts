import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DB_KIND } from '../support/database';
import { asBrowser } from '../support/user-agent';
import { waitForHttp } from '../support/wait';

const MAIN = resolve('dist/src/main.js');

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
    s.on('error', rej);
  });
}

interface Run {
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output: () => string;
  kill: (sig: NodeJS.Signals) => void;
}

function run(env: Record<string, string>): Run {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return {
    exit: new Promise((res) => child.on('exit', (code, signal) => res({ code, signal }))),
    output: () => out,
    kill: (sig) => child.kill(sig),
  };
}

describe('the built server process', () => {
  it('needs the build (npm run build) — scripts/test-all.sh builds first', () => {
    expect(existsSync(MAIN), `${MAIN} is missing: run npm run build`).toBe(true);
  });

  it('refuses a bad configuration with a clear message and a non-zero exit', async () => {
    const r = run({ PORT: 'eighty', LOG_LEVEL: 'chatty', DB_URL: 'mysql://u:CanarySecret@/x' });
    const { code } = await r.exit;
    expect(code).toBe(1);
    expect(r.output()).toContain('Invalid configuration');
    expect(r.output()).toContain('PORT must be an integer');
    expect(r.output()).toContain('LOG_LEVEL must be one of');
    expect(r.output()).not.toContain('CanarySecret');
  });

  it('creates its SQLite file on first start, serves, and shuts down cleanly on SIGTERM, writing buffered uses', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'proc-'));
    const dbFile = join(dir, 'nested', 'url-shorter.db');
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const r = run({ PORT: String(port), DB_FILE: dbFile });
    await waitForHttp(`${base}/api/code/x?redirect=false`);
    expect(existsSync(dbFile)).toBe(true);
    expect(existsSync(join(dir, 'nested', 'app-secret'))).toBe(true);
    const created = await fetch(`${base}/api/code`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com/term' }),
    });
    const { code } = (await created.json()) as { code: string };
    for (let i = 0; i < 3; i++)
      expect((await fetch(`${base}/s/${code}`, asBrowser({ redirect: 'manual' }))).status).toBe(
        302,
      );
    r.kill('SIGTERM');
    const { code: exitCode, signal } = await r.exit;
    expect({ exitCode, signal }).toEqual({ exitCode: 0, signal: null });

    // Restart on the same file: the three uses were written at shutdown.
    const r2 = run({ PORT: String(port), DB_FILE: dbFile });
    await waitForHttp(`${base}/api/code/x?redirect=false`);
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(dbFile, { readonly: true });
    const row = db.prepare('SELECT uses FROM shorts WHERE code = ?').get(code) as { uses: number };
    db.close();
    r2.kill('SIGTERM');
    await r2.exit;
    expect(row.uses).toBe(3);
  });
});

// Registered only in the legs with a database server (TEST_DB_URL set: MariaDB, PostgreSQL).
if (process.env.TEST_DB_URL) {
  describe(`the built server process on ${TEST_DB_KIND}`, () => {
    it('starts on the database server when DB_URL is set, running its migrations', async () => {
      const db = await createTestDatabase();
      const port = await freePort();
      const r = run({ PORT: String(port), ...db.env, APP_SECRET: 'p'.repeat(40) });
      try {
        await waitForHttp(`http://127.0.0.1:${port}/api/code/x?redirect=false`);
        const res = await fetch(`http://127.0.0.1:${port}/api/code`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ url: 'https://example.com/mariadb' }),
        });
        expect(res.status).toBe(201);
      } finally {
        r.kill('SIGTERM');
        await r.exit;
        await db.drop();
      }
    });
  });
}
