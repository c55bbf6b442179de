import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../support/haproxy';
import {
  createTestDatabase,
  TEST_DB_KIND,
  TEST_REDIS_URL,
  type TestDatabase,
} from '../support/database';
import { sessionCookieFrom } from '../support/login';
import { waitFor, waitForHttp } from '../support/wait';

/**
 * What the built server says at start (CONTRACT "Operations", Logs): at info at most 12 lines
 * until it answers, JSON lines or readable ones (LOG_FORMAT), never a secret; the route mapping
 * only at debug.
 */
const MAIN = resolve('dist/src/main.js');
const APP_SECRET = 'AppSecretCanary-0123456789abcdefghijklmnop';
const GITHUB_SECRET = 'GithubSecretCanary-0123456789';

interface Server {
  base: string;
  output: () => string;
  lines: () => string[];
  stop: () => Promise<void>;
}

const running: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of running.splice(0)) await stop();
});

/** The built server on a fresh database, answering; `output` is its stdout and stderr so far. */
async function start(env: Record<string, string>): Promise<Server & { db: TestDatabase }> {
  const db = await createTestDatabase();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      BASE_URL: base,
      APP_SECRET,
      AUTH_GITHUB_CLIENT_ID: 'github-client-id',
      AUTH_GITHUB_CLIENT_SECRET: GITHUB_SECRET,
      LOG_LEVEL: 'info',
      ...db.env,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((res) => child.on('exit', () => res()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    await db.drop();
  };
  running.push(stop);
  await waitForHttp(`${base}/api/code/x?redirect=false`);
  // Lines go out asynchronously: the listening line may follow the first answer by a moment.
  await waitFor(() => out.includes(`URL-Shorter listening on ${base}`), {
    message: () => `the listening line in:\n${out}`,
  });
  return {
    base,
    db,
    output: () => out,
    lines: () => out.split('\n').filter((l) => l.trim() !== ''),
    stop,
  };
}

function isJson(line: string): boolean {
  try {
    return typeof JSON.parse(line) === 'object';
  } catch {
    return false;
  }
}

/** The database line as the start summary writes it for this leg's engine. */
function databaseLine(db: TestDatabase): RegExp {
  if (TEST_DB_KIND === 'sqlite') {
    const file = db.env.DB_FILE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`Database: SQLite ${file}`);
  }
  const u = new URL(db.env.DB_URL);
  const engine = TEST_DB_KIND === 'postgres' ? 'PostgreSQL' : 'MariaDB/MySQL';
  return new RegExp(`Database: ${engine} ${u.hostname}:\\d+${u.pathname}`);
}

function expectNoSecrets(output: string, db: TestDatabase): void {
  expect(output).not.toContain(APP_SECRET);
  expect(output).not.toContain(GITHUB_SECRET);
  if (db.env.DB_URL) {
    const u = new URL(db.env.DB_URL);
    if (u.password) expect(output).not.toContain(decodeURIComponent(u.password));
    if (u.username) expect(output).not.toContain(`${u.username}@`);
  }
}

describe('the start of the built server, in its log', () => {
  it('needs the build (npm run build)', () => {
    expect(existsSync(MAIN), `${MAIN} is missing: run npm run build`).toBe(true);
  });

  it('LOG_FORMAT=json: at most 12 JSON lines at info, with the URL, database and logins', async () => {
    const s = await start({ LOG_FORMAT: 'json' });
    const lines = s.lines();
    expect(lines.length, s.output()).toBeLessThanOrEqual(12);
    for (const line of lines) expect(isJson(line), line).toBe(true);
    const messages = lines.map((l) => (JSON.parse(l) as { message: string }).message);
    expect(messages).toContain(`URL-Shorter listening on ${s.base} (port ${new URL(s.base).port})`);
    expect(messages.join('\n')).toMatch(databaseLine(s.db));
    expect(messages).toContain('Login: GitHub');
    expect(messages.some((m) => m.startsWith('Redis: off'))).toBe(true);
    expect(messages.some((m) => m.startsWith('Off: '))).toBe(true);
    expect(s.output()).not.toMatch(/RoutesResolver|RouterExplorer|InstanceLoader/);
    expectNoSecrets(s.output(), s.db);
  });

  it('LOG_FORMAT=pretty: at most 12 readable lines at info, none of them JSON, no secret', async () => {
    const s = await start({ LOG_FORMAT: 'pretty', REDIS_URL: TEST_REDIS_URL });
    const lines = s.lines();
    expect(lines.length, s.output()).toBeLessThanOrEqual(12);
    for (const line of lines) {
      expect(isJson(line), line).toBe(false);
      // Not a terminal: no colour.
      expect(line).not.toContain('\u001b[');
    }
    expect(
      lines.some(
        (l) => / INFO: Bootstrap: URL-Shorter listening on /.test(l) && l.includes(s.base),
      ),
    ).toBe(true);
    expect(s.output()).toMatch(databaseLine(s.db));
    const redis = new URL(TEST_REDIS_URL);
    expect(s.output()).toContain(`INFO: Bootstrap: Redis: ${redis.hostname}:${redis.port || 6379}`);
    expectNoSecrets(s.output(), s.db);
  });

  it('LOG_LEVEL=debug: the route mapping, and request lines with the request id, scrubbed; /management/logs in JSON', async () => {
    const s = await start({
      LOG_FORMAT: 'pretty',
      LOG_LEVEL: 'debug',
      AUTH_DEV_LOGIN: 'true',
      ADMIN_USERS: 'dev:admin',
    });
    expect(s.output()).toMatch(/ DEBUG: RouterExplorer: Mapped \{\/api\/code, POST\} route/);
    expect(s.output()).toMatch(/ DEBUG: InstanceLoader: /);
    // A path that carries a secret: the access line (debug) masks it.
    const res = await fetch(`${s.base}/api/nothing/${APP_SECRET}`, {
      headers: { 'x-request-id': 'logs-e2e-1' },
    });
    expect(res.status).toBe(404);
    const line = await waitFor(
      () => s.lines().find((l) => l.includes('[logs-e2e-1]') && l.includes('/api/nothing/')),
      { message: () => `the access line in:\n${s.output()}` },
    );
    expect(line).toMatch(/ DEBUG: http \[logs-e2e-1\]: GET \/api\/nothing\/\*{6} 404/);
    expectNoSecrets(s.output(), s.db);

    // The ring behind /management/logs keeps JSON lines, whatever the format on stdout.
    const login = await fetch(`${s.base}/api/auth/dev?username=admin`, { redirect: 'manual' });
    const cookie = sessionCookieFrom(login);
    expect(cookie).not.toBeNull();
    const res2 = await fetch(`${s.base}/management/logs`, { headers: { cookie: cookie ?? '' } });
    expect(res2.status).toBe(200);
    const entries = (await res2.json()) as Array<Record<string, unknown>>;
    expect(entries).toContainEqual(
      expect.objectContaining({
        level: 'debug',
        logger: 'http',
        requestId: 'logs-e2e-1',
        message: 'GET /api/nothing/****** 404',
      }),
    );
    expect(entries).toContainEqual(
      expect.objectContaining({ level: 'debug', logger: 'RouterExplorer' }),
    );
    expect(JSON.stringify(entries)).not.toContain(APP_SECRET);
  });
});
