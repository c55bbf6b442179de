import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FollowService } from '../../src/follow/follow.service';
import { FailureReporter } from '../../src/failure/failure-reporter';
import { MetricsService } from '../../src/metrics/metrics.service';
import { createTestApp, type TestApp } from '../support/app';
import { createTestDatabase, TEST_DB_KIND } from '../support/database';
import { freePort } from '../support/haproxy';
import { DatabaseOutage } from '../support/outage';
import { NO_LIMITS } from '../support/limits';
import { insertShort } from '../support/shorts';
import { asBrowser } from '../support/user-agent';
import { waitFor, pause } from '../support/wait';

// SQLite: the database is made unwritable for the app by another connection's exclusive lock (the
// app's writes wait DB_TIMEOUT_MS and fail busy). MariaDB/PostgreSQL: a TCP proxy in front of the
// server refuses and cuts. The app runs with the default DB_TIMEOUT_MS (2 s).
const SQLITE = TEST_DB_KIND === 'sqlite';
const CUT_MS = 10_000;
const ANSWER_BOUND_MS = 5000;
const RECOVERY_BOUND_MS = 5000;
const LIMIT = 1_000_000;
const log = (msg: string) => console.log(`[outage-load ${TEST_DB_KIND}] ${msg}`);

type Kind = 'create' | 'follow' | 'limited';
interface Answer {
  kind: Kind;
  phase: 'before' | 'cut' | 'after';
  status: number;
  ms: number;
  location: string | null;
  type: string | null;
  retryAfter: string | null;
  body: string;
}

/**
 * The database goes away for 10 s under a steady mix of creates, follows of cached shorts and
 * follows of a short with maxUses, and comes back. Checks the answers during the cut, the recovery
 * without a restart, and the ledger: nothing a client was told is saved is lost, and the uses of
 * the limited short match the redirects clients saw.
 */
describe(`database outage under load (${TEST_DB_KIND})`, () => {
  const outage = new DatabaseOutage();
  let t: TestApp;

  beforeAll(async () => {
    const env = await outage.setup();
    t = await createTestApp({ ...env, LOG_STDOUT: 'false' });
  });
  afterAll(async () => {
    await t?.close();
    await outage.teardown();
  });

  it('answers 503 fast during a 10 s cut, keeps cached follows redirecting, recovers by itself and loses nothing', async () => {
    const t0 = Date.now();
    const follow = t.app.get(FollowService);
    const plain = await Promise.all(
      Array.from({ length: 5 }, (_, i) => insertShort(t, { url: `https://example.com/p/${i}` })),
    );
    const limited = await insertShort(t, { url: 'https://example.com/limited', maxUses: LIMIT });
    for (const s of plain) expect((await t.fetch(`/s/${s.code}`)).status).toBe(302); // cached now
    await follow.flushUses();
    const seen = new Map<string, number>(plain.map((s) => [s.id, 1]));
    let limitedRedirects = 0;
    const createdCodes: string[] = [];
    const refusedCreates: string[] = [];
    const answers: Answer[] = [];
    let phase: Answer['phase'] = 'before';

    async function request(kind: Kind, path: string, init?: RequestInit): Promise<Answer> {
      const start = Date.now();
      const at = phase;
      const res = await fetch(t.url + path, {
        redirect: 'manual',
        signal: AbortSignal.timeout(30_000),
        ...asBrowser(init),
      });
      const body = await res.text();
      const a: Answer = {
        kind,
        phase: at === phase ? at : 'after', // a request that straddles a switch counts as after
        status: res.status,
        ms: Date.now() - start,
        location: res.headers.get('location'),
        type: res.headers.get('content-type'),
        retryAfter: res.headers.get('retry-after'),
        body,
      };
      if (at === 'cut' && phase !== 'cut') a.phase = 'after';
      answers.push(a);
      return a;
    }

    let running = true;
    let n = 0;
    // The workers pace themselves (pause): a steady load for the whole test, not a wait for anything.
    const createWorker = async () => {
      while (running) {
        const url = `https://example.com/created/${n++}`;
        const a = await request('create', '/api/code', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ url }),
        });
        if (a.status === 201) createdCodes.push((JSON.parse(a.body) as { code: string }).code);
        else refusedCreates.push(url);
        await pause(SQLITE ? 50 : 10);
      }
    };
    const followWorker = async (offset: number) => {
      let i = offset;
      while (running) {
        const s = plain[i++ % plain.length];
        const a = await request('follow', `/s/${s.code}`);
        if (a.status === 302 && a.location === s.url) seen.set(s.id, (seen.get(s.id) ?? 0) + 1);
        await pause(2);
      }
    };
    const limitedWorker = async () => {
      while (running) {
        const a = await request('limited', `/s/${limited.code}`);
        if (a.status === 302 && a.location === limited.url) limitedRedirects++;
        await pause(SQLITE ? 20 : 5);
      }
    };
    const load = Promise.all([
      createWorker(),
      followWorker(0),
      followWorker(2),
      limitedWorker(),
      limitedWorker(),
    ]);

    let readinessDuringCut = 0;
    let recoveryMs = -1;
    let readyAgainMs = -1;
    try {
      await pause(1500); // load before the cut, on purpose
      // ---- the cut
      await outage.cut();
      phase = 'cut';
      const cutAt = Date.now();
      log(`cut after ${cutAt - t0} ms of load`);
      await pause(CUT_MS / 2); // the outage lasts CUT_MS on purpose; readiness is read halfway
      const ready = await fetch(`${t.url}/management/health/readiness`);
      readinessDuringCut = ready.status;
      expect(((await ready.json()) as { status: string }).status).toBe('DOWN');
      await pause(CUT_MS - (Date.now() - cutAt));
      // ---- restore
      await outage.restore();
      const restoredAt = Date.now();
      phase = 'after';
      // Recovery: the first create answered 201 and readiness UP, without a restart (15 s at most).
      await waitFor(
        () => answers.some((a) => a.kind === 'create' && a.phase === 'after' && a.status === 201),
        { timeoutMs: 15_000, intervalMs: 20, message: 'a create succeeding after the restore' },
      );
      recoveryMs = Date.now() - restoredAt;
      await waitFor(
        async () => (await fetch(`${t.url}/management/health/readiness`)).status === 200,
        {
          timeoutMs: Math.max(0, 15_000 - (Date.now() - restoredAt)),
          intervalMs: 50,
          message: 'readiness coming back',
        },
      );
      readyAgainMs = Date.now() - restoredAt;
      await pause(2000); // the load goes on after the recovery, on purpose
    } finally {
      running = false;
      await load;
      if (phase === 'cut') await outage.restore();
    }

    // ---- the answers during the cut
    const during = answers.filter((a) => a.phase === 'cut');
    const stats = (kind: Kind) => {
      const xs = during.filter((a) => a.kind === kind);
      const ms = xs.map((a) => a.ms).sort((x, y) => x - y);
      const by: Record<number, number> = {};
      for (const a of xs) by[a.status] = (by[a.status] ?? 0) + 1;
      return { n: xs.length, statuses: by, p50: ms[Math.floor(ms.length / 2)], max: ms.at(-1) };
    };
    log(`during the cut: creates ${JSON.stringify(stats('create'))}`);
    log(`during the cut: cached follows ${JSON.stringify(stats('follow'))}`);
    log(`during the cut: maxUses follows ${JSON.stringify(stats('limited'))}`);
    log(
      `readiness during the cut: ${readinessDuringCut}; recovery (first 201) ${recoveryMs} ms, readiness UP after ${readyAgainMs} ms`,
    );

    expect(answers.filter((a) => a.status >= 500 && a.status !== 503)).toEqual([]);
    for (const a of answers) expect(a.ms).toBeLessThan(ANSWER_BOUND_MS);
    for (const a of answers.filter((x) => x.status === 503)) {
      expect(a.type).toMatch(/^application\/problem\+json/);
      expect(a.retryAfter).toBe('5');
      expect(a.body).not.toMatch(/ECONN|PROTOCOL_|SQLITE|ER_|57P|at \w+ \(/);
    }
    // Cached follows keep redirecting; creates and claims need the database: 503 (a few that
    // started just before the cut may still have gone through).
    expect(during.filter((a) => a.kind === 'follow').every((a) => a.status === 302)).toBe(true);
    expect(during.filter((a) => a.kind === 'follow').length).toBeGreaterThan(50);
    expect(during.filter((a) => a.kind === 'create' && a.status === 503).length).toBeGreaterThan(0);
    expect(during.filter((a) => a.kind === 'limited' && a.status === 503).length).toBeGreaterThan(
      0,
    );
    expect(readinessDuringCut).toBe(503);
    expect(recoveryMs).toBeLessThan(RECOVERY_BOUND_MS);
    expect(readyAgainMs).toBeLessThan(RECOVERY_BOUND_MS);

    // ---- the ledger
    // Buffered use counts are written after the recovery (the flush timer, no restart).
    const flushStart = Date.now();
    await waitFor(() => follow.pendingUses() === 0, {
      timeoutMs: 10_000,
      intervalMs: 100,
      message: () => `the buffered use counts written (${follow.pendingUses()} pending)`,
    });
    log(`buffered counts written ${Date.now() - flushStart} ms after the load stopped`);
    expect(follow.pendingUses()).toBe(0);
    const uses = async (id: string) =>
      Number(
        (
          await t.query<Array<{ uses: number | string }>>('SELECT uses FROM shorts WHERE id = ?', [
            id,
          ])
        )[0].uses,
      );
    for (const s of plain)
      expect({ id: s.id, uses: await uses(s.id) }).toEqual({ id: s.id, uses: seen.get(s.id) });
    // Every create answered 201 exists.
    const stored = new Set(
      (await t.query<Array<{ code: string }>>('SELECT code FROM shorts')).map((r) => r.code),
    );
    const lost = createdCodes.filter((c) => !stored.has(c));
    expect(lost).toEqual([]);
    // The uses of the limited short equal the redirects clients saw. A claim whose answer was lost
    // with the connection (the UPDATE may have committed) is answered 503, never 302, and counted:
    // such a use is spent without a redirect (fail closed), so the bound is seen ≤ uses ≤ seen + unknown.
    const unknown = (await t.app.get(MetricsService).claimsUnknown.get()).values.reduce(
      (sum, v) => sum + v.value,
      0,
    );
    const limitedUses = await uses(limited.id);
    log(
      `ledger: ${createdCodes.length} creates answered 201, ${lost.length} lost; ${refusedCreates.length} refused; ` +
        `maxUses short: ${limitedRedirects} redirects seen, ${limitedUses} uses stored, ${unknown} claims with unknown outcome; ` +
        `plain shorts: ${[...seen.values()].reduce((x, y) => x + y, 0)} redirects, all stored`,
    );
    expect(limitedUses).toBeGreaterThanOrEqual(limitedRedirects);
    expect(limitedUses).toBeLessThanOrEqual(limitedRedirects + unknown);
    t.app.get(FailureReporter).database.stop();
    log(`total ${Date.now() - t0} ms`);
  });
});

/**
 * SIGTERM while requests keep coming: the built server stops taking connections, answers what it
 * took, writes its buffered use counts and exits. Nothing a client was told is lost.
 */
describe(`SIGTERM under load (${TEST_DB_KIND})`, () => {
  const MAIN = resolve('dist/src/main.js');

  it('loses nothing: every 201 create exists, uses equal the redirects seen', async () => {
    expect(existsSync(MAIN), `${MAIN} is missing: run npm run build`).toBe(true);
    const t0 = Date.now();
    const db = await createTestDatabase();
    try {
      // Migrate and seed through an in-process app, then run the built server on the same database.
      const seed = await createTestApp(db.env);
      const plain = await Promise.all(
        Array.from({ length: 3 }, (_, i) =>
          insertShort(seed, { url: `https://example.com/t/${i}` }),
        ),
      );
      const limited = await insertShort(seed, {
        url: 'https://example.com/t-limited',
        maxUses: LIMIT,
      });
      await seed.close();

      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const child = spawn(process.execPath, [MAIN], {
        env: {
          PATH: process.env.PATH ?? '',
          PORT: String(port),
          APP_SECRET: 'sigterm-secret-'.padEnd(40, 'x'),
          LOG_LEVEL: 'warn',
          ...NO_LIMITS,
          ...db.env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      const exited = new Promise<{ code: number | null; signal: string | null }>((r) =>
        child.on('exit', (code, signal) => r({ code, signal })),
      );
      await waitFor(
        () =>
          fetch(`${base}/management/health/liveness`).then(
            () => true,
            () => false,
          ),
        { timeoutMs: 15_000, intervalMs: 100, message: () => `the server's start: ${output}` },
      );
      log(`SIGTERM leg: server up after ${Date.now() - t0} ms`);

      const seen = new Map<string, number>();
      const created: string[] = [];
      const statuses: Record<string, number> = {};
      let accepting = true;
      const worker = async (i: number) => {
        for (let n = 0; accepting; n++) {
          const kind = (i + n) % 3;
          try {
            if (kind === 0) {
              const r = await fetch(`${base}/api/code`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ url: `https://example.com/term/${i}/${n}` }),
              });
              statuses[r.status] = (statuses[r.status] ?? 0) + 1;
              if (r.status === 201) created.push(((await r.json()) as { code: string }).code);
              else await r.text();
            } else {
              const s = kind === 1 ? plain[n % plain.length] : limited;
              const r = await fetch(`${base}/s/${s.code}`, asBrowser({ redirect: 'manual' }));
              statuses[r.status] = (statuses[r.status] ?? 0) + 1;
              await r.text();
              if (r.status === 302 && r.headers.get('location') === s.url) {
                seen.set(s.id, (seen.get(s.id) ?? 0) + 1);
              }
            }
          } catch {
            // Refused or cut by the shutdown: not acknowledged, nothing to account for.
            statuses.error = (statuses.error ?? 0) + 1;
            if (child.exitCode !== null || child.signalCode !== null) accepting = false;
            await pause(5); // a refused call: a short back-off before the next
          }
        }
      };
      const load = Promise.all(Array.from({ length: 6 }, (_, i) => worker(i)));
      await pause(1500); // load before the SIGTERM, on purpose
      const term = Date.now();
      child.kill('SIGTERM');
      const exit = await exited;
      const exitMs = Date.now() - term;
      accepting = false;
      await load;
      log(
        `SIGTERM leg: exit ${JSON.stringify(exit)} after ${exitMs} ms; answers ${JSON.stringify(statuses)}`,
      );
      expect(exit).toEqual({ code: 0, signal: null });
      expect(Object.keys(statuses).filter((s) => /^5/.test(s))).toEqual([]);

      const check = await createTestApp(db.env);
      try {
        const stored = new Set(
          (await check.query<Array<{ code: string }>>('SELECT code FROM shorts')).map(
            (r) => r.code,
          ),
        );
        expect(created.filter((c) => !stored.has(c))).toEqual([]);
        for (const s of [...plain, limited]) {
          const [row] = await check.query<Array<{ uses: number | string }>>(
            'SELECT uses FROM shorts WHERE id = ?',
            [s.id],
          );
          expect({ code: s.code, uses: Number(row.uses) }).toEqual({
            code: s.code,
            uses: seen.get(s.id) ?? 0,
          });
        }
        log(
          `SIGTERM leg: ${created.length} creates and ${[...seen.values()].reduce((a, b) => a + b, 0)} redirects acknowledged, all stored; total ${Date.now() - t0} ms`,
        );
      } finally {
        await check.close();
      }
    } finally {
      await db.drop();
    }
  });
});
