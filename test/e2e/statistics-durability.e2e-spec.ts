import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatisticsRecorder } from '../../src/statistics/recorder';
import { createTestApp, type TestApp, useTestApp, useTestDatabase } from '../support/app';
import { createTestDatabase, TEST_DB_KIND, TEST_REDIS_URL } from '../support/database';
import { loginAs } from '../support/login';
import { DatabaseOutage } from '../support/outage';
import { insertShort } from '../support/shorts';
import { waitForHttp, pause } from '../support/wait';

const UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

async function visitsOf(t: TestApp, shortId: string): Promise<number> {
  const rows = await t.query(
    'SELECT COALESCE(SUM(visits), 0) AS n FROM stats_hourly WHERE short_id = ?',
    [shortId],
  );
  return Number(rows[0].n);
}

/** Follows `n` times, `parallel` at a time; returns how many were redirected to the target. */
async function burst(base: string, code: string, n: number, parallel = 100): Promise<number> {
  let redirected = 0;
  for (let i = 0; i < n; i += parallel) {
    const answers = await Promise.all(
      Array.from({ length: Math.min(parallel, n - i) }, (_, j) =>
        fetch(`${base}/s/${code}`, {
          redirect: 'manual',
          headers: { 'user-agent': UA, 'x-forwarded-for': `203.0.113.${(i + j) % 250}` },
        }).then(
          (r) =>
            r.status === 302 &&
            !(r.headers.get('location') ?? '').startsWith(`/s/${code}/not-found`),
        ),
      ),
    );
    redirected += answers.filter(Boolean).length;
  }
  return redirected;
}

describe('statistics across instances, shutdown and outages', () => {
  describe('two instances on one database and Redis', () => {
    const db = useTestDatabase();
    const a = useTestApp(() => ({ ...db.env, REDIS_URL: TEST_REDIS_URL, TRUST_PROXY: 'loopback' }));
    const b = useTestApp(() => ({ ...db.env, REDIS_URL: TEST_REDIS_URL, TRUST_PROXY: 'loopback' }));

    it('1,000 concurrent follows spread over both are 1,000 visits; unique visitors counted once', async () => {
      const s = await insertShort(a, { url: 'https://example.com/both' });
      const [onA, onB] = await Promise.all([burst(a.url, s.code, 500), burst(b.url, s.code, 500)]);
      expect(onA + onB).toBe(1000);
      // One after the other: both apps share this test's event loop, and a SQLite writer waiting
      // for the other's lock would hold the loop the other needs to finish.
      await a.app.get(StatisticsRecorder).flush();
      await b.app.get(StatisticsRecorder).flush();
      expect(
        a.app.get(StatisticsRecorder).pending() + b.app.get(StatisticsRecorder).pending(),
      ).toBe(0);
      expect(await visitsOf(a, s.id)).toBe(1000);
      // The same 250 addresses with one browser on both instances: 250 visitors, not 500.
      const rows = await a.query(
        'SELECT COALESCE(SUM(visitors), 0) AS n FROM stats_hourly WHERE short_id = ?',
        [s.id],
      );
      expect(Number(rows[0].n)).toBe(250);
    });
  });

  it('SIGTERM right after a burst loses nothing (the built process)', async () => {
    const main = resolve('dist/src/main.js');
    expect(existsSync(main), 'npm run build first').toBe(true);
    const db = await createTestDatabase();
    const port = await new Promise<number>((res) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as { port: number }).port;
        srv.close(() => res(p));
      });
    });
    const base = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, [main], {
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(port),
        APP_SECRET: 's'.repeat(40),
        LOG_LEVEL: 'warn',
        TRUST_PROXY: 'loopback',
        ...db.env,
      },
      stdio: 'ignore',
    });
    const exited = new Promise((r) => child.on('exit', r));
    let t: TestApp | undefined;
    try {
      await waitForHttp(`${base}/api/code/x?redirect=false`);
      const created = await fetch(`${base}/api/code`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'https://example.com/sigterm' }),
      });
      const { code } = (await created.json()) as { code: string };
      const redirected = await burst(base, code, 500);
      child.kill('SIGTERM');
      await exited;
      t = await createTestApp({ ...db.env });
      const [row] = await t.query('SELECT id FROM shorts WHERE code = ?', [code]);
      expect(await visitsOf(t, String(row.id))).toBe(redirected);
      expect(redirected).toBe(500);
    } finally {
      child.kill('SIGKILL');
      await t?.close();
      await db.drop();
    }
  });

  describe(`a database outage of a few seconds during follows (${TEST_DB_KIND})`, () => {
    const outage = new DatabaseOutage();
    let t: TestApp;
    beforeAll(async () => {
      const env = await outage.setup();
      t = await createTestApp({ ...env, AUTH_DEV_LOGIN: 'true', DB_TIMEOUT_MS: '500' });
    });
    afterAll(async () => {
      await t?.close();
      await outage.teardown();
    });

    it('loses no counted visit: the aggregates wait and are written after recovery', async () => {
      const alice = await loginAs(t, 'alice');
      const res = await alice.post('/api/code', { url: 'https://example.com/outage-stats' });
      const { code } = (await res.json()) as { code: string };
      const { id } = (await (await alice.fetch(`/api/code/${code}?redirect=false`)).json()) as {
        id: string;
      };
      let redirected = await burst(t.url, code, 100, 20); // cached from here on
      await t.app.get(StatisticsRecorder).flush();
      await outage.cut();
      const cutUntil = Date.now() + 3000;
      while (Date.now() < cutUntil) {
        redirected += await burst(t.url, code, 20, 10);
        await t.app.get(StatisticsRecorder).flush(); // fails; keeps the aggregate
        await pause(100); // follows go on through the 3 s cut (time passes on purpose)
      }
      expect(t.app.get(StatisticsRecorder).pending()).toBeGreaterThan(0);
      await outage.restore();
      await expect
        .poll(
          async () => {
            await t.app.get(StatisticsRecorder).flush();
            return visitsOf(t, id);
          },
          { timeout: 15_000, interval: 250 },
        )
        .toBe(redirected);
      expect(redirected).toBeGreaterThan(100);
    });
  });
});
