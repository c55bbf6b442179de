import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ShortViewService } from '../../src/shorts/short-view.service';
import { FailureReporter } from '../../src/failure/failure-reporter';
import { SentryService } from '../../src/sentry/sentry.service';
import { type TestApp, useTestApp } from '../support/app';
import { FakeSentry } from '../support/fake-sentry';
import { waitFor } from '../support/wait';

const SECRET = {
  password: 'canary-sentry-password-9d2f',
  cookie: 'canary-sentry-cookie-1a7b',
  bearer: 'canary-sentry-bearer-5c3e',
  appSecret: 'canary-sentry-app-secret-0e4d8b2f6a1c9e7d',
};

/**
 * Makes the next info call fail with an unexpected error (a bug: 500). A database that is down is
 * not unexpected: it is a 503 (see the outage tests below).
 */
async function breakNextInfo(t: TestApp): Promise<() => Promise<void>> {
  const spy = vi
    .spyOn(t.app.get(ShortViewService), 'info')
    .mockRejectedValueOnce(new TypeError("Cannot read properties of undefined (reading 'x')"));
  return async () => {
    spy.mockRestore();
  };
}

/** Makes the database unavailable (the data source is closed) until the returned function runs. */
async function breakDatabase(t: TestApp): Promise<() => Promise<void>> {
  await t.ds.destroy();
  return async () => {
    await t.ds.initialize();
  };
}

describe('error reporting to Sentry', () => {
  const sentry = new FakeSentry();

  beforeAll(async () => {
    await sentry.start();
  });
  afterAll(async () => {
    await sentry.stop();
  });

  describe('with SENTRY_DSN', () => {
    const t = useTestApp(() => ({
      SENTRY_DSN: sentry.dsn(), // the fake's address: known once its beforeAll has started it
      APP_SECRET: SECRET.appSecret,
      LOG_STDOUT: 'false',
    }));

    it('reports an unexpected 500 with the request id and without secrets', async () => {
      const before = sentry.events().length;
      const repair = await breakNextInfo(t);
      try {
        const res = await t.fetch(
          `/api/code/some-code?redirect=false&password=${SECRET.password}`,
          {
            headers: { 'x-request-id': 'req-sentry-500', cookie: `other=${SECRET.cookie}` },
          },
        );
        expect(res.status).toBe(500);
        const body = (await res.json()) as { detail: string };
        expect(body.detail).toBe('An unexpected error occurred');
      } finally {
        await repair();
      }
      expect(await t.app.get(SentryService).flush(5000)).toBe(true);
      const events = sentry.events().slice(before);
      expect(events).toHaveLength(1);
      const event = events[0] as {
        tags?: Record<string, string>;
        exception?: unknown;
        request?: unknown;
      };
      expect(event.tags?.request_id).toBe('req-sentry-500');
      expect(event.exception).toBeDefined();
      expect(event.request).toBeUndefined();
      const raw = sentry.envelopes.map((e) => e.raw).join('\n');
      for (const s of Object.values(SECRET)) expect(raw).not.toContain(s);
      expect(sentry.envelopes.every((e) => e.path.startsWith('/api/1/envelope/'))).toBe(true);
    });

    it('does not report expected errors (4xx)', async () => {
      const before = sentry.envelopes.length;
      expect((await t.fetch('/api/code/unknown-code?redirect=false')).status).toBe(404);
      expect((await t.post('/api/code', { url: 'javascript:alert(1)' })).status).toBe(400);
      await t.app.get(SentryService).flush(5000);
      expect(sentry.envelopes.length).toBe(before);
    });

    it('a database outage answers 503 with Retry-After and is reported once, not per request', async () => {
      const before = sentry.events().length;
      const repair = await breakDatabase(t);
      try {
        for (let i = 0; i < 20; i++) {
          const res = await t.fetch(`/api/code/code-${i}?redirect=false`);
          expect(res.status).toBe(503);
          expect(res.headers.get('retry-after')).toBe('5');
          const body = (await res.json()) as { detail: string };
          expect(body.detail).toBe('Service temporarily unavailable, please try again shortly');
        }
      } finally {
        await repair();
        t.app.get(FailureReporter).database.stop();
      }
      expect(await t.app.get(SentryService).flush(5000)).toBe(true);
      expect(sentry.events().slice(before)).toHaveLength(1);
    });
  });

  describe('without SENTRY_DSN', () => {
    const t = useTestApp({ LOG_STDOUT: 'false' });

    it('sends nothing, even for a 500', async () => {
      const before = sentry.envelopes.length;
      expect(t.app.get(SentryService).enabled).toBe(false);
      const repair = await breakNextInfo(t);
      try {
        expect((await t.fetch('/api/code/some-code?redirect=false')).status).toBe(500);
      } finally {
        await repair();
      }
      await t.app.get(SentryService).flush(1000);
      expect(sentry.envelopes.length).toBe(before);
    });
  });
  describe('a crash of the built server', () => {
    it('is logged and reported with secrets masked, then the process exits', async () => {
      const before = sentry.events().length;
      const dir = mkdtempSync(join(tmpdir(), 'crash-'));
      const child = spawn(
        process.execPath,
        ['--require', resolve('test/support/crash-preload.cjs'), resolve('dist/src/main.js')],
        {
          env: {
            PATH: process.env.PATH ?? '',
            PORT: '0',
            DB_FILE: join(dir, 'crash.db'),
            APP_SECRET: SECRET.appSecret,
            SENTRY_DSN: sentry.dsn(),
            LOG_LEVEL: 'info',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const exit = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
      // Wait (bounded) until the server has started, then make it crash.
      await waitFor(() => out.includes('URL-Shorter listening'), {
        timeoutMs: 30_000,
        intervalMs: 100,
        message: () => `the server's start (output so far: ${out})`,
      });
      expect(out).toContain('URL-Shorter listening');
      child.kill('SIGUSR2');
      expect(await exit).toBe(1);
      const events = sentry.events().slice(before);
      expect(events).toHaveLength(1);
      const raw = JSON.stringify(events[0]);
      expect(raw).toContain('crash-canary ******');
      expect(raw).not.toContain(SECRET.appSecret);
      const fatal = out.split('\n').find((l) => l.includes('"level":"fatal"'));
      expect(fatal).toContain('crash-canary ******');
      expect(out).not.toContain(SECRET.appSecret);
    });
  });
});
