import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CleanupService } from '../../src/shorts/cleanup.service';
import { MetricsService } from '../../src/metrics/metrics.service';
import { createTestApp, type TestApp } from '../support/app';
import { createTestDatabase, TEST_DB_KIND, type TestDatabase } from '../support/database';
import { Haproxy } from '../support/haproxy';
import { asLoggedIn, sessionCookieFrom, type LoggedIn } from '../support/login';
import { asBrowser } from '../support/user-agent';
import { waitFor } from '../support/wait';
import { createdShort, CreatedShort } from '../support/shorts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The bound the issue sets for a change made on one instance to reach the other. */
const PROPAGATION_BOUND_MS = 1000;
const step = (name: string, since: number) =>
  console.log(`[load-balancer ${TEST_DB_KIND}] ${name}: ${Date.now() - since} ms`);

/**
 * Two app instances on one database (SQLite: one shared file, as in instances.e2e-spec.ts) and one
 * Redis, behind a real HAProxy (round robin, `option forwardfor`) with TRUST_PROXY=1. HAProxy adds
 * `X-Served-By` (app0/app1), so every assertion can check that both instances answered.
 */
describe(`two instances behind HAProxy (${TEST_DB_KIND})`, () => {
  let db: TestDatabase;
  const apps: TestApp[] = [];
  let proxy: Haproxy;
  let front: string;
  const propagation: Record<string, number> = {};

  beforeAll(async () => {
    const start = Date.now();
    db = await createTestDatabase();
    const env = {
      ...db.env,
      REDIS_URL,
      TRUST_PROXY: '1',
      AUTH_DEV_LOGIN: 'true',
      ADMIN_USERS: 'dev:lb-admin',
      PASSWORD_MAX_TRIES: '3',
      REPORT_THRESHOLD: '3',
    };
    // One after the other: the first runs the migrations.
    apps.push(await createTestApp(env));
    apps.push(await createTestApp(env));
    proxy = new Haproxy(
      apps.map((a) => ({ host: '127.0.0.1', port: Number(new URL(a.url).port) })),
      { servedBy: true },
    );
    front = await proxy.start();
    step('two instances and HAProxy up', start);
  });
  afterAll(async () => {
    console.log(`[load-balancer ${TEST_DB_KIND}] propagation ms: ${JSON.stringify(propagation)}`);
    await proxy?.stop();
    for (const a of apps) await a.close();
    await db?.drop();
  });

  /** A request through the balancer; redirects are never followed. */
  const viaFront = (path: string, init: RequestInit = {}) =>
    fetch(front + path, { redirect: 'manual', ...asBrowser(init) });

  /** Logs in through the balancer; the session cookie is then used on both instances. */
  async function loginViaFront(
    username: string,
  ): Promise<{ cookie: string; headers: Record<string, string> }> {
    const res = await viaFront(`/api/auth/dev?username=${username}`);
    expect(res.status).toBe(302);
    const cookie = sessionCookieFrom(res);
    expect(cookie).not.toBeNull();
    return {
      cookie: cookie as string,
      headers: { cookie: cookie as string, origin: front, 'content-type': 'application/json' },
    };
  }

  /** The same session on each instance directly (same-origin headers for that instance). */
  const on = (i: number, cookie: string): LoggedIn => asLoggedIn(apps[i], cookie);

  const follow = async (base: string, code: string) => {
    const res = await fetch(`${base}/s/${code}`, asBrowser({ redirect: 'manual' }));
    return res.headers.get('location');
  };

  /** The code and id of a created short, read back on the first instance. */
  const created = (res: Response) => createdShort(res, apps[0]);

  /** Polls the other instance until the follow answers `expected`; returns the ms it took. */
  async function untilOn(base: string, code: string, expected: string): Promise<number> {
    const start = Date.now();
    let loc: string | null = null;
    await waitFor(async () => (loc = await follow(base, code)) === expected, {
      timeoutMs: 5000,
      intervalMs: 10,
      message: () => `the other instance answering ${expected} (it still answers ${loc})`,
    });
    return Date.now() - start;
  }

  it('a login through the balancer survives 50 requests alternating between the instances', async () => {
    const start = Date.now();
    const alice = await loginViaFront('lb-alice');
    const served: string[] = [];
    for (let i = 0; i < 50; i++) {
      const res = await viaFront('/api/account', { headers: { cookie: alice.cookie } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { username: string }).username).toBe('lb-alice');
      served.push(res.headers.get('x-served-by') ?? '');
    }
    // Round robin: consecutive requests go to different instances.
    expect(new Set(served)).toEqual(new Set(['app0', 'app1']));
    for (let i = 1; i < served.length; i++) expect(served[i]).not.toBe(served[i - 1]);
    // A state change with the session works through the balancer too (CSRF: the front's origin).
    const created = await viaFront('/api/code', {
      method: 'POST',
      headers: alice.headers,
      body: JSON.stringify({ url: 'https://example.com/lb-login' }),
    });
    expect(created.status).toBe(201);
    step('login over 50 alternating requests', start);
  });

  it('maxUses = 25 gives exactly 25 redirects of 300 concurrent follows spread over both instances', async () => {
    const start = Date.now();
    const bob = await loginViaFront('lb-bob');
    const target = 'https://example.com/lb-limited';
    const res = await viaFront('/api/code', {
      method: 'POST',
      headers: bob.headers,
      body: JSON.stringify({ url: target, maxUses: 25 }),
    });
    const { code, id } = await created(res);
    const answers = await Promise.all(
      Array.from({ length: 300 }, async () => {
        const r = await viaFront(`/s/${code}`);
        return { location: r.headers.get('location'), by: r.headers.get('x-served-by') };
      }),
    );
    const redirects = answers.filter((a) => a.location === target);
    expect(redirects).toHaveLength(25);
    expect(
      answers.filter((a) => a.location === `/s/${code}/not-found?reason=used-up`),
    ).toHaveLength(275);
    expect(new Set(answers.map((a) => a.by))).toEqual(new Set(['app0', 'app1']));
    expect(new Set(redirects.map((a) => a.by)).size).toBeGreaterThanOrEqual(1);
    const [row] = await apps[0].query<Array<{ uses: number | string }>>(
      'SELECT uses FROM shorts WHERE id = ?',
      [id],
    );
    expect(Number(row.uses)).toBe(25);
    step('300 concurrent follows of a maxUses=25 short', start);
  });

  it(`a delete, an edit, a danger flag and a blacklist entry made on one instance reach the other within ${PROPAGATION_BOUND_MS} ms`, async () => {
    const start = Date.now();
    const owner = await loginViaFront('lb-carol');
    const admin = await loginViaFront('lb-admin');
    const [a, b] = [on(0, owner.cookie), apps[1].url];
    const adminA = on(0, admin.cookie);

    async function cachedOnB(url: string): Promise<CreatedShort> {
      const short = await created(await a.post('/api/code', { url }));
      expect(await follow(b, short.code)).toBe(url); // B caches it
      expect(await follow(b, short.code)).toBe(url);
      return short;
    }

    // Delete on A.
    const del = await cachedOnB('https://example.com/lb-delete');
    expect((await a.delete(`/api/code/${del.id}`)).status).toBe(204);
    propagation.delete = await untilOn(b, del.code, `/s/${del.code}/not-found`);

    // Edit (PATCH) on A.
    const edit = await cachedOnB('https://example.com/lb-edit-before');
    const patched = await a.fetch(`/api/code/${edit.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ url: 'https://example.com/lb-edit-after' }),
    });
    expect(patched.status).toBe(200);
    propagation.edit = await untilOn(b, edit.code, 'https://example.com/lb-edit-after');

    // Danger flag by an admin on A.
    const flag = await cachedOnB('https://example.com/lb-flag');
    const put = await adminA.put(`/api/admin/entity/shorts/${flag.id}`, { dangerous: true });
    expect(put.status).toBeLessThan(300);
    propagation.dangerFlag = await untilOn(b, flag.code, `/s/${flag.code}/potentially-dangerous`);

    // A blacklist entry by an admin on A.
    const host = `lb-${randomUUID().slice(0, 8)}.example`;
    const listed = await cachedOnB(`https://${host}/x`);
    const entry = await adminA.put(`/api/admin/entity/blacklist/${randomUUID()}`, {
      kind: 'host',
      value: host,
    });
    expect(entry.status).toBeLessThan(300);
    propagation.blacklist = await untilOn(
      b,
      listed.code,
      `/s/${listed.code}/potentially-dangerous`,
    );

    console.log(`[load-balancer ${TEST_DB_KIND}] propagation ms: ${JSON.stringify(propagation)}`);
    for (const ms of Object.values(propagation)) expect(ms).toBeLessThan(PROPAGATION_BOUND_MS);
    step('four changes propagated', start);
  });

  it('the report threshold flags a short exactly once when reports arrive on both instances at once', async () => {
    const start = Date.now();
    const owner = await loginViaFront('lb-dave');
    const res = await viaFront('/api/code', {
      method: 'POST',
      headers: owner.headers,
      body: JSON.stringify({ url: 'https://example.com/lb-report' }),
    });
    const { code } = (await res.json()) as { code: string };
    const flaggedBefore = await flaggedTotal();
    const reporters = await Promise.all(
      Array.from({ length: 6 }, (_, i) => loginViaFront(`lb-reporter-${i}`)),
    );
    const answers = await Promise.all(
      reporters.map(async (r, i) => {
        const x = await viaFront(`/api/code/${code}/report`, {
          method: 'POST',
          headers: r.headers,
          body: JSON.stringify({ reason: i % 2 ? 'SPAM' : 'HARMFUL', description: `report ${i}` }),
        });
        return { status: x.status, by: x.headers.get('x-served-by') };
      }),
    );
    expect(answers.map((x) => x.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((x) => x.by))).toEqual(new Set(['app0', 'app1']));
    expect((await flaggedTotal()) - flaggedBefore).toBe(1);
    expect(await follow(front, code)).toBe(`/s/${code}/potentially-dangerous`);
    step('report threshold', start);
  });

  async function flaggedTotal(): Promise<number> {
    let n = 0;
    for (const a of apps) {
      for (const v of (await a.app.get(MetricsService).flagged.get()).values) n += v.value;
    }
    return n;
  }

  it('the scheduled cleanup runs on exactly one instance', async () => {
    const start = Date.now();
    const runsOf = async (a: TestApp) =>
      (await a.app.get(MetricsService).jobRuns.get()).values.reduce((n, v) => n + v.value, 0);
    // The run 3 s after boot, on both.
    await Promise.all(apps.map((a) => a.app.get(CleanupService).firstRun));
    // The interval's timer firing on both instances again (at once, then one after the other).
    await Promise.all(apps.map((a) => a.app.get(CleanupService).scheduled()));
    for (const a of apps) await a.app.get(CleanupService).scheduled();
    const runs = await Promise.all(apps.map(runsOf));
    expect(runs.filter((n) => n > 0)).toHaveLength(1);
    step('scheduled jobs', start);
  });

  it('the password lockout is shared: wrong tries on both instances add up', async () => {
    const start = Date.now();
    const res = await viaFront('/api/code', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com/lb-pw', password: 'right-one' }),
    });
    const { code } = (await res.json()) as { code: string };
    const tries: Array<{ location: string | null; by: string | null }> = [];
    for (const pw of ['bad1', 'bad2', 'bad3', 'right-one', 'right-one']) {
      const r = await viaFront(`/s/${code}?password=${pw}`);
      tries.push({ location: r.headers.get('location'), by: r.headers.get('x-served-by') });
    }
    const wrong = `/s/${code}/password-required?wrong=true`;
    const locked = `/s/${code}/password-required?locked=true`;
    expect(tries.map((t) => t.location)).toEqual([wrong, wrong, wrong, locked, locked]);
    expect(new Set(tries.map((t) => t.by))).toEqual(new Set(['app0', 'app1']));
    step('shared password lockout', start);
  });
});
